import { DataSource } from 'typeorm';
import { newPartner } from './support/fixtures';
import { expectValidationFailed } from './support/problems';
import { newPersonalNumber } from './support/personal-numbers';
import { bearer, expectOAuthError, newPsu, PSU_IP, Psd2Client, type Psu } from './support/psd2';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';

/**
 * Contract §2 on hostile input (issue 13): control characters in text, JSON numbers in exponent
 * form, `null` in bodies and prototype keys are each 400 VALIDATION_FAILED naming the field (or the
 * problem they are), never a 500, and nothing is written.
 */
describe('input hardening: bad input is 400 naming the field and writes nothing (contract §2)', () => {
  let t: TestApp;
  let db: DataSource;
  let psu: Psu;
  let token: string;
  let partnerKey: string;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    db = t.get(DataSource);
    psu = await newPsu(t);
    token = await psu.token();
    partnerKey = (await newPartner(t)).api_key;
  });
  afterAll(() => t.close());

  const count = async (table: string): Promise<number> => (await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const transfer = (over: Record<string, unknown> = {}) => ({
    amount: 100.5,
    currency: 'SEK',
    transfer_date: '2026-11-25',
    recipient_account_number: '5050-1055',
    recipient_name: 'Anna Svensson',
    statement: 'Hyra',
    counter_part_statement: 'Faktura 1',
    ...over,
  });
  /** PIS 3.0 orders transfers and recurring transfers; v3 orders transfers (bank §2.7). */
  const pis = (version: '3.0' | 'v3', kind: 'transfers' | 'recurring-transfers') =>
    version === '3.0' ? `/psd2/savings/3.0/accounts/${psu.accounts[0]}/${kind}` : `/v3/accounts/${psu.accounts[0]}/${kind}`;
  const headers = () => bearer(psu.tpp, token);
  /** Sends the JSON text as written, so `1e-7` reaches the service as the client wrote it. */
  const rawJson = (method: 'post' | 'put', path: string, json: string, auth: Record<string, string>) =>
    t.http[method](path).set(auth).set('Content-Type', 'application/json').send(json);
  const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

  describe('control characters U+0000–U+001F and U+007F in text (contract §2)', () => {
    const orders = [
      ['3.0', 'transfers'],
      ['3.0', 'recurring-transfers'],
      ['v3', 'transfers'],
    ] as const;
    for (const [version, kind] of orders) {
      for (const field of ['recipient_name', 'statement', 'counter_part_statement']) {
        it(`refuses U+0000 in ${field} of a PIS ${version} ${kind} order: 400 naming the field, nothing written (contract §2)`, async () => {
          const table = kind === 'transfers' ? 'transfer' : 'recurring_transfer';
          const before = await count(table);
          const body = transfer({ [field]: 'Hy\u0000ra', ...(kind === 'recurring-transfers' ? { frequency: 'MONTHLY' } : {}) });
          expectValidationFailed(await t.http.post(pis(version, kind)).set(headers()).send(body), field);
          expect(await count(table)).toBe(before);
        });
      }
    }

    it('refuses U+001F and U+007F as well as U+0000 in a transfer message (contract §2)', async () => {
      for (const c of ['\u0001', '\u001f', '\u007f', '\n', '\t']) {
        expectValidationFailed(await t.http.post(pis('3.0', 'transfers')).set(headers()).send(transfer({ statement: `a${c}b` })), 'statement');
      }
    });

    it('refuses U+0000 in admin user, account and partner names and in seed: 400 naming the field, nothing written (contract §2)', async () => {
      const pn = newPersonalNumber();
      expectValidationFailed(await t.admin.put(`/admin/users/${pn}`, { name: 'Nul\u0000l', kyc_completed: true }), 'name');
      expect((await t.admin.get(`/admin/users/${pn}`)).status).toBe(404);

      const accounts = await count('account');
      expectValidationFailed(await t.admin.post(`/admin/users/${psu.user}/accounts`, { name: 'K\u0000', currency: 'SEK', balance: 1 }), 'name');
      expect(await count('account')).toBe(accounts);

      const partners = await count('partner');
      expectValidationFailed(await t.admin.post('/admin/partners', { name: 'P\u0000 AB' }), 'name');
      expect(await count('partner')).toBe(partners);

      const seeded = newPersonalNumber();
      const res = await t.admin.post('/admin/seed', { users: [{ personal_number: seeded, name: 'S\u0000', kyc_completed: true, accounts: [] }], partners: [], tpps: [] });
      expectValidationFailed(res, 'users.0.name');
      expect((await t.admin.get(`/admin/users/${seeded}`)).status).toBe(404);
    });

    it('refuses client_id=%00 on the enterprise authorize call: 400 naming client_id, no pending code stored (contract §2)', async () => {
      const before = await count('enterprise_authorization');
      const res = await t.http
        .get('/api/auth/1.0/authorize?client_id=%00&response_type=pending_code&scope=loan.read&user_id=199001011239')
        .set({ Authorization: `Bearer ${partnerKey}` });
      expectValidationFailed(res, 'client_id');
      expect(await count('enterprise_authorization')).toBe(before);
    });

    it('refuses U+0000 in a path segment: 400 naming the segment (contract §2)', async () => {
      expectValidationFailed(await t.admin.get('/admin/users/1990%000101'), 'personal_number');
      expectValidationFailed(await t.http.get(`/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers/%00/status`).set(headers()), 'referenceId');
    });

    it('refuses a control character in a header it reads (X-Sandbox-User): 400 naming the header, no authentication started (contract §2)', async () => {
      const before = await count('eid_order');
      const res = await t.http
        .post('/psd2/auth/3.0/authenticate')
        .set(psu.tpp.headers({ 'X-Sandbox-User': `${psu.user.slice(0, 6)}\t${psu.user.slice(6)}` }))
        .send({ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' });
      expectValidationFailed(res, 'X-Sandbox-User');
      expect(res.body.reason.message).toContain('control characters');
      expect(await count('eid_order')).toBe(before);
    });

    it('refuses a control character in PSU-IP-Address wherever it is sent: 400 naming the header (contract §2)', async () => {
      const res = await t.http.get('/v2/accounts').set(bearer(psu.tpp, token, { 'PSU-IP-Address': '192.0.2\t.10' }));
      expectValidationFailed(res, 'PSU-IP-Address');
    });

    it('refuses a control character in the Authorization bearer value before any lookup: 400 naming Authorization (contract §2)', async () => {
      expectValidationFailed(await t.http.get('/admin/users').set('Authorization', `Bearer ${ADMIN_KEY}\tx`), 'Authorization');
      expectValidationFailed(await t.http.get('/v2/accounts').set(bearer(psu.tpp, `${token}\tx`)), 'Authorization');
    });

    it('a control character in a token form parameter is invalid_request, never a 500 (contract §2 token table)', async () => {
      const res = await t.http.post('/psd2/auth/1.0/token').set(psu.tpp.headers()).type('form').send('grant_type=pending_authorization_code&pending_code=%00');
      expectOAuthError(res, 400, 'invalid_request');
      const enterprise = await t.http.post('/api/auth/1.0/token').set({ Authorization: `Bearer ${partnerKey}` }).type('form').send('grant_type=pending_authorization_code&pending_code=a%00b');
      expectOAuthError(enterprise, 400, 'invalid_request');
    });

    it('prototype keys in a token form are unknown parameters and ignored like any other (RFC 6749 §3.2, contract §2)', async () => {
      const res = await t.http
        .post('/psd2/auth/1.0/token')
        .set(psu.tpp.headers())
        .type('form')
        .send(`grant_type=non_authenticated_token&user_id=${psu.user}&__proto__=x&constructor=y&prototype=z`);
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
    });
  });

  describe('lone UTF-16 surrogates in text: JSON can write them, but they are no characters (contract §2: never a 500)', () => {
    it('refuses a lone surrogate in a seed, a sandbox fixture, a sandbox name, a certificate common_name and a transfer text: 400 naming the field, nothing written', async () => {
      const seeded = newPersonalNumber();
      const seed = `{"users":[{"personal_number":"${seeded}","name":"S\\ud800","kyc_completed":true}]}`;
      const refused = await rawJson('post', '/admin/seed', seed, admin);
      expectValidationFailed(refused, 'users.0.name');
      expect(refused.body.reason.message).toMatch(/surrogate/);
      expect((await t.admin.get(`/admin/users/${seeded}`)).status).toBe(404);

      const sandboxes = await count('sandbox');
      expectValidationFailed(await rawJson('post', '/sandboxes', '{"name":"x","seed_demo":false,"fixture":{"partners":[{"name":"\\udc00 AB"}]}}', admin), 'fixture.partners.0.name');
      expectValidationFailed(await rawJson('post', '/sandboxes', '{"name":"\\ud800"}', admin), 'name');
      expect(await count('sandbox')).toBe(sandboxes);

      expectValidationFailed(await rawJson('post', '/sandbox/certificates', '{"organization_id":"PSDSE-FINA-1","roles":[],"common_name":"\\udc00"}', admin), 'common_name');

      const transfers = await count('transfer');
      expectValidationFailed(await rawJson('post', pis('3.0', 'transfers'), JSON.stringify(transfer()).replace('Hyra', '\\ud83d'), headers()), 'statement');
      expect(await count('transfer')).toBe(transfers);
    });

    it('keeps a well-formed pair (an emoji) as written', async () => {
      const pn = newPersonalNumber();
      await t.admin.put(`/admin/users/${pn}`, { name: 'Glad \u{1F600}', kyc_completed: true }).expect(201);
      expect((await t.admin.get(`/admin/users/${pn}`).expect(200)).body.name).toBe('Glad \u{1F600}');
    });
  });

  describe('JSON numbers in exponent form: the rules apply to the value (contract §2)', () => {
    it('refuses amount 1e-7 on a transfer: 400 naming amount, nothing written', async () => {
      const before = await count('transfer');
      const json = JSON.stringify(transfer()).replace('"amount":100.5', '"amount":1e-7');
      expectValidationFailed(await rawJson('post', pis('3.0', 'transfers'), json, headers()), 'amount');
      expectValidationFailed(await rawJson('post', pis('v3', 'transfers'), json, headers()), 'amount');
      expect(await count('transfer')).toBe(before);
    });

    it('accepts amount 1E2 on a transfer as the value 100', async () => {
      const json = JSON.stringify(transfer()).replace('"amount":100.5', '"amount":1E2');
      const res = await rawJson('post', pis('3.0', 'transfers'), json, headers()).expect(201);
      const stored = await db.query('SELECT amount::text AS amount FROM transfer WHERE reference_id = $1', [res.body.reference_id]);
      expect(stored[0].amount).toBe('100.00');
    });

    it('refuses balance 1e-7 on an account: 400 naming balance, nothing written', async () => {
      const before = await count('account');
      expectValidationFailed(await rawJson('post', `/admin/users/${psu.user}/accounts`, '{"name":"K","currency":"SEK","balance":1e-7}', admin), 'balance');
      expectValidationFailed(await rawJson('post', `/admin/users/${psu.user}/accounts`, '{"name":"K","currency":"SEK","balance":1e400}', admin), 'balance');
      expect(await count('account')).toBe(before);
    });

    it('refuses seconds 1e-7 on clock advance: 400 naming seconds, the clock unmoved', async () => {
      const before = await t.clock.now();
      expectValidationFailed(await rawJson('post', '/admin/clock/advance', '{"seconds":1e-7}', admin), 'seconds');
      expect(await t.clock.now()).toBe(before);
      // 1E2 is 100 seconds.
      await rawJson('post', '/admin/clock/advance', '{"seconds":1E2}', admin).expect(200);
      expect(Date.parse(await t.clock.now()) - Date.parse(before)).toBe(100_000);
      await t.clock.freeze();
    });
  });

  describe('null in a request body: absent for an optional field, 400 for a required one (contract §2)', () => {
    it('treats unsecured_loan_amount: null on a pre-approval as absent: 201 without an unsecured variant', async () => {
      const applicant = psu.user;
      const res = await t.http
        .post('/mortgage/2.0/pre-approval')
        .set({ Authorization: `Bearer ${partnerKey}` })
        .send({ applicants: [{ personal_number: applicant, yearly_income: 900_000 }], loan_amount: 1_000_000, unsecured_loan_amount: null })
        .expect(201);
      expect(res.body.offer.with_unsecured_loan).toBeUndefined();
    });

    it('refuses recipient_name: null on a transfer after 2025-11-01: 400 naming recipient_name, nothing written', async () => {
      const before = await count('transfer');
      expectValidationFailed(await t.http.post(pis('3.0', 'transfers')).set(headers()).send(transfer({ recipient_name: null })), 'recipient_name');
      expectValidationFailed(await t.http.post(pis('v3', 'transfers')).set(headers()).send(transfer({ recipient_name: null })), 'recipient_name');
      const recurring = await count('recurring_transfer');
      expectValidationFailed(await t.http.post(pis('3.0', 'recurring-transfers')).set(headers()).send(transfer({ recipient_name: null, frequency: 'MONTHLY' })), 'recipient_name');
      expect(await count('transfer')).toBe(before);
      expect(await count('recurring_transfer')).toBe(recurring);
    });

    it('refuses null for a required field: 400 naming it', async () => {
      expectValidationFailed(await t.http.post(pis('3.0', 'transfers')).set(headers()).send(transfer({ currency: null })), 'currency');
      expectValidationFailed(await t.admin.post('/admin/partners', { name: null }), 'name');
    });
  });

  describe('prototype keys are unknown fields like any other (contract §2)', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      it(`refuses a "${key}" field in a transfer body: 400 naming it, nothing written`, async () => {
        const before = await count('transfer');
        const json = JSON.stringify(transfer()).replace(/}$/, `,"${key}":{"amount":1}}`);
        expectValidationFailed(await rawJson('post', pis('3.0', 'transfers'), json, headers()), key);
        expect(await count('transfer')).toBe(before);
      });

      it(`refuses a "${key}" query parameter: 400 naming it`, async () => {
        expectValidationFailed(await t.admin.get(`/admin/users?${key}=x`), key);
      });
    }

    it('refuses a nested __proto__ key in a seed body: 400 naming its path, nothing written', async () => {
      const pn = newPersonalNumber();
      const json = `{"users":[{"personal_number":"${pn}","name":"N","kyc_completed":true,"accounts":[],"__proto__":{"x":1}}],"partners":[],"tpps":[]}`;
      expectValidationFailed(await rawJson('post', '/admin/seed', json, admin), 'users.0.__proto__');
      expect((await t.admin.get(`/admin/users/${pn}`)).status).toBe(404);
    });
  });
});

describe('the OpenAPI request schemas say the rules the service enforces (contract §1, §2; issue 13)', () => {
  let t: TestApp;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas read as loosely as the answer body they come from
  let doc: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>; components: { schemas: Record<string, Record<string, any>> } };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());
  const schema = (name: string) => doc.components.schemas[name];

  it('every JSON request-body schema, nested ones too, says additionalProperties: false (unknown fields are 400)', () => {
    const refs = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.requestBody?.content['application/json']?.schema.$ref ? [op.requestBody.content['application/json'].schema.$ref] : [])),
    );
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect({ ref, additionalProperties: schema(ref.split('/').pop()!).additionalProperties }).toEqual({ ref, additionalProperties: false });
    expect(schema('ApplicantDto').additionalProperties).toBe(false);
  });

  it('recipient_name is required, transfer texts carry the ISO 8859-1 pattern, money its two decimals as multipleOf', () => {
    for (const name of ['CreateTransferDto', 'CreateRecurringTransferDto']) {
      const transfer = schema(name);
      expect(transfer.required).toContain('recipient_name');
      for (const field of ['recipient_name', 'statement', 'counter_part_statement']) {
        const pattern = new RegExp(transfer.properties[field].pattern as string, 'u');
        expect([pattern.test('Åsa Öberg'), pattern.test('a\u0000b'), pattern.test('€')]).toEqual([true, false, false]);
      }
      expect(transfer.properties.amount.multipleOf).toBe(0.01);
    }
    expect(schema('OpenAccountDto').properties.balance.multipleOf).toBe(0.01);
    expect(schema('AdvanceClockDto').properties.seconds.multipleOf).toBe(0.001);
  });
});

describe('PSD2 token form parameters reach no lookup with control characters (contract §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a NUL in user_id of the non-authenticated grant is invalid_request', async () => {
    const client = await Psd2Client.create(t);
    const res = await t.http.post('/psd2/auth/1.0/token').set(client.headers({ 'PSU-IP-Address': PSU_IP })).type('form').send('grant_type=non_authenticated_token&user_id=19900101%001239');
    expectOAuthError(res, 400, 'invalid_request');
  });
});
