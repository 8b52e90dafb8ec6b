/** The page's stylesheet: readable, visible focus, nothing that needs a build step. */
export const EID_SIMULATOR_PAGE_STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 46rem; padding: 1rem; color: #1a1a1a; }
h1 { margin-bottom: 0.25rem; }
section { border-top: 1px solid #ccc; padding: 0.5rem 0 1rem; }
label { font-weight: 600; margin-right: 0.5rem; }
input, select, button { font: inherit; padding: 0.3rem 0.5rem; margin: 0.2rem 0.4rem 0.2rem 0; }
input { min-width: 18rem; }
button { cursor: pointer; border: 1px solid #555; border-radius: 4px; background: #f4f4f4; }
button.primary { background: #0b5; color: #fff; border-color: #084; }
button:disabled { opacity: 0.5; cursor: wait; }
:focus-visible { outline: 3px solid #1561d6; outline-offset: 2px; }
fieldset { border: 1px solid #ccc; border-radius: 4px; margin: 0.5rem 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
code { overflow-wrap: anywhere; }
.help { color: #555; font-size: 0.9rem; margin: 0.2rem 0; }
.problem, #message.error { color: #8a1010; background: #fdeaea; padding: 0.5rem; border-radius: 4px; }
#message.ok { color: #0a5020; background: #e6f6ea; padding: 0.5rem; border-radius: 4px; }
#message:empty { display: none; }
figure { margin: 0.5rem 0; }
`;
