/** The console's stylesheet: readable, visible focus, nothing that needs a build step. */
export const CONSOLE_PAGE_STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 64rem; padding: 1rem; color: #1a1a1a; }
h1 { margin-bottom: 0.25rem; }
section { border-top: 1px solid #ccc; padding: 0.5rem 0 1rem; }
label { font-weight: 600; margin-right: 0.5rem; }
input, select, button { font: inherit; padding: 0.3rem 0.5rem; margin: 0.2rem 0.4rem 0.2rem 0; }
button { cursor: pointer; border: 1px solid #555; border-radius: 4px; background: #f4f4f4; }
button:disabled { opacity: 0.5; cursor: wait; }
:focus-visible { outline: 3px solid #1561d6; outline-offset: 2px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
code, pre { overflow-wrap: anywhere; }
pre { background: #f6f6f6; padding: 0.5rem; border-radius: 4px; white-space: pre-wrap; font-size: 0.85rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #e2e2e2; vertical-align: top; }
.help { color: #555; font-size: 0.9rem; margin: 0.2rem 0; }
#message.error { color: #8a1010; background: #fdeaea; padding: 0.5rem; border-radius: 4px; }
#message.ok { color: #0a5020; background: #e6f6ea; padding: 0.5rem; border-radius: 4px; }
#message:empty { display: none; }
#journal { list-style: none; padding: 0; }
#journal > li { border-bottom: 1px solid #e2e2e2; }
#journal summary { cursor: pointer; padding: 0.3rem 0; font-family: ui-monospace, monospace; font-size: 0.9rem; }
#journal .status-bad { color: #8a1010; font-weight: 700; }
#journal .status-ok { color: #0a5020; font-weight: 700; }
.hint-code { display: inline-block; background: #fff3cd; color: #5c4400; border: 1px solid #e0c36a; border-radius: 3px; padding: 0 0.3rem; margin-left: 0.3rem; font-size: 0.8rem; }
tr:target { background: #fff3cd; }
#hints code { overflow-wrap: normal; }
`;
