/**
 * The base stylesheet of the service's server-rendered pages (the eid simulator, the console):
 * readable type, labelled controls, a visible focus ring, messages. Each page adds its own rules
 * after it, so they may refine these.
 */
export function basePageStyle(maxWidth: string): string {
  return `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: ${maxWidth}; padding: 1rem; color: #1a1a1a; }
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
.help { color: #555; font-size: 0.9rem; margin: 0.2rem 0; }
#message.error { color: #8a1010; background: #fdeaea; padding: 0.5rem; border-radius: 4px; }
#message.ok { color: #0a5020; background: #e6f6ea; padding: 0.5rem; border-radius: 4px; }
`;
}
