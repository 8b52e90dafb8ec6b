import type { Psd2Client } from '../certificate/psd2-client';
import type { AccessTokenGrant } from '../tokens/token.repository';

/** A PSD2 resource call: who the TPP is and what its token grants. */
export interface Psd2Caller extends Psd2Client {
  token: AccessTokenGrant;
}

declare module '@app/common' {
  interface Principals {
    'psd2-caller': { kind: 'psd2-caller'; caller: Psd2Caller };
  }
}
