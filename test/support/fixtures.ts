import { newPersonalNumber } from './personal-numbers';
import { BASE_TIME, createTestApp, type TestApp, type TestAppOptions } from './test-app';

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

/** A partner as POST /admin/partners answers it (contract §8). */
export interface TestPartner {
  partner_id: string;
  name: string;
  api_key: string;
}

/** The app of the partner API tests, its clock frozen at BASE_TIME (`t.clock.freeze()` before each test), and one partner's key. */
export async function partnerApp(options: TestAppOptions = {}): Promise<{ t: TestApp; key: string }> {
  const t = await createTestApp({ frozenAt: BASE_TIME, ...options });
  return { t, key: (await newPartner(t)).api_key };
}

/** A partner made through the admin API, with a random key unless the overrides give one. */
export async function newPartner(t: TestApp, overrides: { name?: string; api_key?: string } = {}): Promise<TestPartner> {
  return (await t.admin.post('/admin/partners', { name: 'Testpartner AB', ...overrides }).expect(201)).body;
}
