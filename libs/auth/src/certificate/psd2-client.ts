import type { Psd2Role, TppRef } from '@app/directory';

/** The TPP behind a PSD2 call, as its test certificate says (contract §3). */
export interface Psd2Client {
  tpp: TppRef;
  roles: Psd2Role[];
}

declare module '@app/common' {
  interface Principals {
    'psd2-client': { kind: 'psd2-client'; client: Psd2Client };
  }
}
