export interface Partner {
  id: string;
  name: string;
}

/** The answer to registering a partner: the only time the clear key is shown. */
export interface IssuedPartner extends Partner {
  apiKey: string;
}
