import { basePageStyle } from '@app/common';

/** The page's stylesheet: readable, visible focus, nothing that needs a build step. */
export const EID_SIMULATOR_PAGE_STYLE = `${basePageStyle('46rem')}
input { min-width: 18rem; }
button.primary { background: #0b5; color: #fff; border-color: #084; }
fieldset { border: 1px solid #ccc; border-radius: 4px; margin: 0.5rem 0; }
code { overflow-wrap: anywhere; }
.problem, #message.error { color: #8a1010; background: #fdeaea; padding: 0.5rem; border-radius: 4px; }
#message:empty { display: none; }
figure { margin: 0.5rem 0; }
`;
