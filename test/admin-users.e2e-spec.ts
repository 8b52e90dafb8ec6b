import { luhnDigit, newPersonalNumber, tenDigitForm, withWrongCheckDigit } from './support/personal-numbers';
import { sampleFixture } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { BASE_TIME, createTestApp, TestApp } from './support/test-app';

const FAILED_HINTS = ['EXPIRED_TRANSACTION', 'CERTIFICATE_ERR', 'USER_CANCEL', 'CANCELLED', 'START_FAILED', 'USER_DECLINED_CALL', 'NOT_SUPPORTED_BY_USER_APP', 'UNKNOWN'];

describe('admin users and accounts (contract §4, §8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const putUser = (pn: string, body: object) => t.admin.put(`/admin/users/${pn}`, body);

  describe('PUT /admin/users/{personal_number}', () => {
    it('creates a user with 201, then replaces it with 200 (contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Första Namn', kyc_completed: true }).expect(201);
      await putUser(pn, { name: 'Andra Namn', kyc_completed: false }).expect(200);
      const res = await t.admin.get(`/admin/users/${pn}`).expect(200);
      expect(res.body).toMatchObject({ personal_number: pn, name: 'Andra Namn', kyc_completed: false });
    });

    it('answers the user with every setting and no accounts yet (contract §8)', async () => {
      const pn = newPersonalNumber();
      const res = await putUser(pn, { name: 'Åsa Öberg', kyc_completed: true, eid_behaviour: 'FAIL:USER_CANCEL', busy_elsewhere: true, credit_decision: 'REJECTED' }).expect(201);
      expect(res.body).toEqual({
        personal_number: pn,
        name: 'Åsa Öberg',
        kyc_completed: true,
        eid_behaviour: 'FAIL:USER_CANCEL',
        busy_elsewhere: true,
        credit_decision: 'REJECTED',
        accounts: [],
      });
    });

    it('applies the defaults AUTO_COMPLETE and busy_elsewhere false, and omits an unset credit_decision (contract §4, §2)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Default Person', kyc_completed: true }).expect(201);
      const res = await t.admin.get(`/admin/users/${pn}`).expect(200);
      expect(res.body).toMatchObject({ eid_behaviour: 'AUTO_COMPLETE', busy_elsewhere: false });
      expect(res.body).not.toHaveProperty('credit_decision');
    });

    it('resets omitted settings to their defaults on replace (PUT semantics, contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'X', kyc_completed: true, eid_behaviour: 'MANUAL', busy_elsewhere: true, credit_decision: 'APPROVED' }).expect(201);
      const res = await putUser(pn, { name: 'X', kyc_completed: true }).expect(200);
      expect(res.body).toMatchObject({ eid_behaviour: 'AUTO_COMPLETE', busy_elsewhere: false });
      expect(res.body).not.toHaveProperty('credit_decision');
    });

    it('accepts every eid behaviour of contract §4: the four simple ones and FAIL:<each FAILED hint of §3.2>', async () => {
      const pn = newPersonalNumber();
      for (const behaviour of ['AUTO_COMPLETE', 'MANUAL', 'NO_RESPONSE', 'COLLECT_ERROR', ...FAILED_HINTS.map((h) => `FAIL:${h}`)]) {
        await putUser(pn, { name: 'Beteende', kyc_completed: true, eid_behaviour: behaviour }).expect((res) => expect([200, 201]).toContain(res.status));
        const res = await t.admin.get(`/admin/users/${pn}`).expect(200);
        expect(res.body.eid_behaviour).toBe(behaviour);
      }
    });

    it.each([['SOMETIMES'], ['FAIL:NOT_A_HINT'], ['FAIL:USER_SIGN']])(
      'refuses eid_behaviour %s with 400 naming eid_behaviour (contract §4: FAIL takes a FAILED hint of §3.2)',
      async (behaviour) => {
        const pn = newPersonalNumber();
        expectValidationFailed(await putUser(pn, { name: 'X', kyc_completed: true, eid_behaviour: behaviour }), 'eid_behaviour');
        await t.admin.get(`/admin/users/${pn}`).expect(404);
      },
    );

    it('accepts the 10-digit YYMMDD-NNNC form and stores 12 digits (contract §4)', async () => {
      const pn = newPersonalNumber();
      const res = await putUser(tenDigitForm(pn), { name: 'Tio Siffror', kyc_completed: true }).expect(201);
      expect(res.body.personal_number).toBe(pn);
      await t.admin.get(`/admin/users/${pn}`).expect(200);
      await t.admin.get(`/admin/users/${tenDigitForm(pn)}`).expect(200);
    });

    it('accepts the YYMMDD+NNNC form as 100 years or older (contract §4)', async () => {
      const pn = newPersonalNumber(1920);
      await putUser(tenDigitForm(pn, '+'), { name: 'Hundra År', kyc_completed: true }).expect(201);
      await t.admin.get(`/admin/users/${pn}`).expect(200);
    });

    it('resolves the century of a 10-digit number against the sandbox clock, not the machine clock (contract §4, §6)', async () => {
      const nine = '200101123';
      const ten = `200101-123${luhnDigit(nine)}`;
      await t.clock.set('2019-06-01T12:00:00+02:00');
      const res = await putUser(ten, { name: 'Nitton Tjugo', kyc_completed: true }).expect(201);
      expect(res.body.personal_number).toBe(`19${nine}${luhnDigit(nine)}`);
      await t.clock.set(BASE_TIME);
      const later = await putUser(ten, { name: 'Tjugo Tjugo', kyc_completed: true }).expect(201);
      expect(later.body.personal_number).toBe(`20${nine}${luhnDigit(nine)}`);
    });

    it('refuses a wrong check digit with 400 naming personal_number, and writes nothing (contract §2, §4)', async () => {
      const pn = withWrongCheckDigit(newPersonalNumber());
      expectValidationFailed(await putUser(pn, { name: 'Bad', kyc_completed: true }), 'personal_number');
      expectValidationFailed(await t.admin.get(`/admin/users/${pn}`), 'personal_number');
    });

    it('refuses a date that does not exist (month 13) even with a correct check digit (contract §4)', async () => {
      const nine = '901301123';
      expectValidationFailed(await putUser(`19${nine}${luhnDigit(nine)}`, { name: 'Bad Date', kyc_completed: true }), 'personal_number');
    });

    it('refuses a wrong type with 400 naming the field (contract §2)', async () => {
      expectValidationFailed(await putUser(newPersonalNumber(), { name: 'X', kyc_completed: 'yes' }), 'kyc_completed');
    });

    it('refuses a missing required field with 400 naming it (contract §8)', async () => {
      expectValidationFailed(await putUser(newPersonalNumber(), { name: 'X' }), 'kyc_completed');
    });

    it('refuses an unknown field with 400 naming it, and writes nothing (contract §2)', async () => {
      const pn = newPersonalNumber();
      expectValidationFailed(await putUser(pn, { name: 'X', kyc_completed: true, favourite_colour: 'blue' }), 'favourite_colour');
      await t.admin.get(`/admin/users/${pn}`).expect(404);
    });

    it('refuses a credit_decision other than APPROVED or REJECTED (contract §4)', async () => {
      expectValidationFailed(await putUser(newPersonalNumber(), { name: 'X', kyc_completed: true, credit_decision: 'MAYBE' }), 'credit_decision');
    });

    it('refuses a body that is not a JSON object with 400 (contract §2)', async () => {
      const res = await t.http.put(`/admin/users/${newPersonalNumber()}`).set('Authorization', 'Bearer test-admin-key-0123456789abcdef').set('Content-Type', 'application/json').send('[1,2]');
      expectProblem(res, 400, 'VALIDATION_FAILED');
    });
  });

  describe('GET /admin/users', () => {
    it('lists users in personal-number order with their settings and account counts (contract §8)', async () => {
      const [a, b] = [newPersonalNumber(), newPersonalNumber()].sort();
      await putUser(a, { name: 'Lista Ett', kyc_completed: true, eid_behaviour: 'MANUAL', credit_decision: 'APPROVED' }).expect(201);
      await putUser(b, { name: 'Lista Två', kyc_completed: false }).expect(201);
      await t.admin.post(`/admin/users/${a}/accounts`, { name: 'A', currency: 'SEK', balance: 1 }).expect(201);
      await t.admin.post(`/admin/users/${a}/accounts`, { name: 'B', currency: 'EUR', balance: 2 }).expect(201);
      const res = await t.admin.get('/admin/users?limit=500').expect(200);
      const numbers = res.body.users.map((u: { personal_number: string }) => u.personal_number);
      expect(numbers).toEqual([...numbers].sort());
      expect(res.body.users.find((u: { personal_number: string }) => u.personal_number === a)).toEqual({
        personal_number: a,
        name: 'Lista Ett',
        kyc_completed: true,
        eid_behaviour: 'MANUAL',
        busy_elsewhere: false,
        credit_decision: 'APPROVED',
        account_count: 2,
      });
      expect(res.body.users.find((u: { personal_number: string }) => u.personal_number === b)).toMatchObject({ account_count: 0, eid_behaviour: 'AUTO_COMPLETE' });
    });

    it('pages with limit and next_after until every user was listed once; the last page has no next_after', async () => {
      for (let i = 0; i < 3; i++) await putUser(newPersonalNumber(), { name: `Sida ${i}`, kyc_completed: true }).expect(201);
      const all = (await t.admin.get('/admin/users?limit=500').expect(200)).body.users.map((u: { personal_number: string }) => u.personal_number);
      const paged: string[] = [];
      let after: string | undefined;
      for (let pages = 0; pages <= all.length; pages++) {
        const res = await t.admin.get(`/admin/users?limit=2${after ? `&after=${after}` : ''}`).expect(200);
        expect(res.body.users.length).toBeLessThanOrEqual(2);
        paged.push(...res.body.users.map((u: { personal_number: string }) => u.personal_number));
        after = res.body.next_after;
        if (!after) break;
        expect(after).toBe(paged[paged.length - 1]);
      }
      expect(paged).toEqual(all);
    });

    it.each([['limit=0', 'limit'], ['limit=501', 'limit'], ['limit=ten', 'limit'], ['limit=', 'limit'], ['limit=0x10', 'limit'], ['limit=%2010', 'limit'], ['after=1912', 'after']])(
      'refuses %s with 400 naming the parameter (contract §2)',
      async (query, field) => {
        expectValidationFailed(await t.admin.get(`/admin/users?${query}`), field);
      },
    );

    it('needs the admin key (contract §3)', async () => {
      expectProblem(await t.http.get('/admin/users'), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET /admin/users/{personal_number}', () => {
    it('answers 404 NOT_FOUND for an unknown valid personal number (contract §2)', async () => {
      expectProblem(await t.admin.get(`/admin/users/${newPersonalNumber()}`), 404, 'NOT_FOUND');
    });
  });

  describe('POST /admin/users/{personal_number}/accounts', () => {
    it('opens an account with a generated 11-digit number at the sandbox clearing number (contract §8, §10)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Konto Ägare', kyc_completed: true }).expect(201);
      const res = await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'Sparkonto', currency: 'SEK', balance: 5000 }).expect(201);
      expect(res.body).toEqual({ account_number: expect.stringMatching(/^9250\d{7}$/), name: 'Sparkonto', currency: 'SEK', balance: 5000, available_balance: 5000 });
      const user = await t.admin.get(`/admin/users/${pn}`).expect(200);
      expect(user.body.accounts).toEqual([res.body]);
    });

    it('keeps amounts exact: 0.1 + 0.2 style balances come back as given (contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Exakt', kyc_completed: true }).expect(201);
      const res = await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'K', currency: 'SEK', balance: 1234567.89 }).expect(201);
      expect(res.body.balance).toBe(1234567.89);
    });

    it('refuses a balance with more than two decimals or below zero (contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'X', kyc_completed: true }).expect(201);
      expectValidationFailed(await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'K', currency: 'SEK', balance: 1.234 }), 'balance');
      expectValidationFailed(await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'K', currency: 'SEK', balance: -1 }), 'balance');
    });

    it('refuses a currency code not in capital letters with 400 naming currency, never 500, writing nothing (contract §2, §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Valuta', kyc_completed: true }).expect(201);
      for (const currency of ['sek', 'Sek', 'sEK']) {
        expectValidationFailed(await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'K', currency, balance: 1 }), 'currency');
      }
      const { fixture } = sampleFixture();
      fixture.users[0].accounts[0].currency = 'sek';
      expectValidationFailed(await t.admin.post('/admin/seed', fixture), 'currency');
      await t.admin.get(`/admin/users/${fixture.users[0].personal_number}`).expect(404);
      expect((await t.admin.get(`/admin/users/${pn}`).expect(200)).body.accounts).toEqual([]);
    });

    it('gives distinct numbers to accounts opened one after another (contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Två Konton', kyc_completed: true }).expect(201);
      const a = await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'A', currency: 'SEK', balance: 1 }).expect(201);
      const b = await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'B', currency: 'SEK', balance: 1 }).expect(201);
      expect(a.body.account_number).not.toBe(b.body.account_number);
    });

    it('uses a given account_number, and answers 409 CONFLICT when it is taken (contract §8)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'Eget Nummer', kyc_completed: true }).expect(201);
      const number = `9250${String(Date.parse('2026-01-01') % 1e7).padStart(7, '0')}`;
      await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'A', currency: 'SEK', balance: 1, account_number: number }).expect(201);
      expectProblem(await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'B', currency: 'SEK', balance: 1, account_number: number }), 409, 'CONFLICT');
    });

    it('answers 404 NOT_FOUND for an unknown user (contract §2)', async () => {
      expectProblem(await t.admin.post(`/admin/users/${newPersonalNumber()}/accounts`, { name: 'K', currency: 'SEK', balance: 1 }), 404, 'NOT_FOUND');
    });

    it('refuses a currency that is not ISO 4217 with 400 naming currency (contract §2)', async () => {
      const pn = newPersonalNumber();
      await putUser(pn, { name: 'X', kyc_completed: true }).expect(201);
      expectValidationFailed(await t.admin.post(`/admin/users/${pn}/accounts`, { name: 'K', currency: 'KRONOR', balance: 1 }), 'currency');
    });
  });
});
