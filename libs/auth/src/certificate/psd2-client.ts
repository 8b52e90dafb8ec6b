import type { Psd2Role, TppRef } from '@app/directory';

/** The TPP behind a PSD2 call, as its test certificate says (contract §3). */
export interface Psd2Client {
  tpp: TppRef;
  roles: Psd2Role[];
  /**
   * What the tokens of this call are bound to (contract §16, RFC 8705 §3): the thumbprint of the TLS
   * handshake's client certificate on the TLS port, null on the plain port.
   */
  certificateBinding: string | null;
}

declare module '@app/common' {
  interface Principals {
    'psd2-client': { kind: 'psd2-client'; client: Psd2Client };
  }
}
