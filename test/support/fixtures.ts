import { newPersonalNumber } from './personal-numbers';

export interface FixtureAccount {
  name: string;
  currency: string;
  balance: number;
  account_number?: string;
}

export interface FixtureUser {
  personal_number: string;
  name: string;
  kyc_completed: boolean | string;
  eid_behaviour?: string;
  credit_decision?: string;
  accounts: FixtureAccount[];
  [unknownField: string]: unknown;
}

export interface Fixture {
  users: FixtureUser[];
  partners: Array<{ name: string; api_key?: string }>;
  tpps: Array<{ organization_id: string; non_authenticated_token_lifetime_s: number }>;
}

/** A complete fixture of contract §8 with fresh personal numbers and unique keys. */
export function sampleFixture(): { fixture: Fixture; alice: string; bob: string } {
  const alice = newPersonalNumber();
  const bob = newPersonalNumber();
  const suffix = alice.slice(-6);
  const fixture: Fixture = {
    users: [
      {
        personal_number: alice,
        name: 'Alice Andersson',
        kyc_completed: true,
        eid_behaviour: 'MANUAL',
        accounts: [
          { name: 'Lönekonto', currency: 'SEK', balance: 12500.75, account_number: `925000${suffix.slice(0, 5)}` },
          { name: 'Resekonto', currency: 'EUR', balance: 300 },
        ],
      },
      { personal_number: `${bob.slice(2, 8)}-${bob.slice(8)}`, name: 'Bob Berg', kyc_completed: false, credit_decision: 'REJECTED', accounts: [] },
    ],
    partners: [{ name: 'Fixture Partner AB', api_key: `fixture-partner-key-${suffix}-0000` }, { name: 'Random Key AB' }],
    tpps: [{ organization_id: `PSDSE-FINA-${suffix}`, non_authenticated_token_lifetime_s: 600 }],
  };
  return { fixture, alice, bob };
}
