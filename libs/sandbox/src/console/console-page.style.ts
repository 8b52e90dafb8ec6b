import { basePageStyle } from '@app/common';

/** The console's stylesheet: readable, visible focus, nothing that needs a build step. */
export const CONSOLE_PAGE_STYLE = `${basePageStyle('64rem')}
code, pre { overflow-wrap: anywhere; }
pre { background: #f6f6f6; padding: 0.5rem; border-radius: 4px; white-space: pre-wrap; font-size: 0.85rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
th, td { text-align: left; padding: 0.2rem 0.5rem; border-bottom: 1px solid #e2e2e2; vertical-align: top; }
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
