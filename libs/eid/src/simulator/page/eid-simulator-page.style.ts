import { basePageStyle } from '@app/common';

/** The page's stylesheet: readable, visible focus, nothing that needs a build step. */
export const EID_SIMULATOR_PAGE_STYLE = `${basePageStyle('46rem')}
input { min-width: 18rem; }
/* White on #0a7a35 is 5.5:1 (WCAG AA asks 4.5:1). */
button.primary { background: #0a7a35; color: #fff; border-color: #065a26; }
fieldset { border: 1px solid #ccc; border-radius: 4px; margin: 0.5rem 0; }
code { overflow-wrap: anywhere; }
.problem, #message.error { color: #8a1010; background: #fdeaea; padding: 0.5rem; border-radius: 4px; }
#message:empty { display: none; }
figure { margin: 0.5rem 0; }
`;
