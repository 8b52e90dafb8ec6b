import { ModulesContainer } from '@nestjs/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { hashSecret } from '@app/common';
import { MIGRATIONS } from '../migrations';
import { partnerApp } from './support/fixtures';
import { newPsu, newUser, PSU_IP, Psd2Client } from './support/psd2';
import { BASE_TIME, TestApp } from './support/test-app';

const HASH_MIGRATION = 'SecretsHashPendingCodesAndAutostartTokens1763800013400';

/**
 * Issue 13 (DEVELOPERS.md: tokens, codes and keys are stored hashed): pending codes and autostart
 * tokens are kept as their SHA-256; the clear value exists only in the answer that hands it out.
 */
describe('secrets at rest (issue 13: pending codes and autostart tokens stored hashed)', () => {
  let t: TestApp;
  let partnerKey: string;
  beforeAll(async () => ({ t, key: partnerKey } = await partnerApp()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const dataSource = () => t.get(DataSource);
  const partner = () => ({ Authorization: `Bearer ${partnerKey}` });
  const enterpriseAuthorize = (userId: string) =>
    t.http.get('/api/auth/1.0/authorize').set(partner()).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: userId });
  const enterpriseExchange = (pendingCode: string) =>
    t.http.post('/api/auth/1.0/token').set(partner()).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pendingCode });

  /** Every row of every table of the schema, as PostgreSQL's text of the row. */
  async function everyRow(): Promise<string> {
    const tables: Array<{ name: string }> = await dataSource().query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    const rows: string[] = [];
    for (const { name } of tables) {
      const found: Array<{ row: string }> = await dataSource().query(`SELECT r::text AS row FROM "${name}" r`);
      rows.push(...found.map((r) => r.row));
    }
    return rows.join('\n').toLowerCase();
  }

  async function expectNoTableHolds(secrets: Record<string, string>): Promise<void> {
    const dump = await everyRow();
    const found = Object.entries(secrets).filter(([, value]) => dump.includes(value.toLowerCase()));
    expect(found.map(([what]) => what)).toEqual([]);
  }

  it('no column holds a clear PSD2 pending code, autostart token or enterprise pending code after every flow; each is found by its SHA-256 (issue 13)', async () => {
    const secrets: Record<string, string> = {};
    // PSD2 AUTO_START: start, open in the app by autostart token, status, exchange; another one cancelled.
    const tpp = await Psd2Client.create(t);
    const user = await newUser(t, { eid: 'MANUAL' });
    const auto = await tpp.pendingCode({ flow: 'authorize', user, scopes: 'AIS' });
    secrets['PSD2 pending code (AUTO_START)'] = auto.pendingCode;
    secrets['PSD2 auto_start_token'] = auto.autoStartToken!;
    const opened = await t.http.post('/sandbox/eid/open').send({ token: auto.autoStartToken }).expect(200);
    await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
    expect((await tpp.status(auto.pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
    const tokens = (await tpp.exchange(auto.pendingCode).expect(200)).body;
    secrets['access_token'] = tokens.access_token;
    secrets['refresh_token'] = tokens.refresh_token;
    const cancelled = await tpp.pendingCode({ user });
    secrets['PSD2 pending code (cancelled)'] = cancelled.pendingCode;
    secrets['PSD2 auto_start_token (cancelled)'] = cancelled.autoStartToken!;
    await tpp.cancel(cancelled.pendingCode).expect(204);
    // PSD2 QR_CODE: status (QR poll), then the page's way in: ?autostarttoken= with a QR string.
    const qr = await tpp.pendingCode({ user, mode: 'QR_CODE' });
    secrets['PSD2 pending code (QR_CODE)'] = qr.pendingCode;
    const qrCode = (await tpp.status(qr.pendingCode).expect(200)).body.qr_code as string;
    await t.http.post('/sandbox/eid/open').send({ token: qrCode }).expect(200);
    // Transfer signing: the autostart token of a signing order.
    const psu = await newPsu(t);
    const pisToken = await psu.token();
    secrets['PIS access_token'] = pisToken;
    const ref = (
      await t.http
        .post(`/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers`)
        .set(psu.tpp.headers({ Authorization: `Bearer ${pisToken}` }))
        .send({ amount: 10, currency: 'SEK', transfer_date: '2026-11-25', recipient_account_number: '5050-1055', recipient_name: 'Anna Svensson' })
        .expect(201)
    ).body.reference_id;
    const signing = (
      await t.http.post('/psd2/savings/3.0/transfers/signing/start').set(psu.tpp.headers({ Authorization: `Bearer ${pisToken}` })).send({ reference_ids: [ref] }).expect(200)
    ).body;
    secrets['transfer signing autostart_token'] = signing.autostart_token;
    // Enterprise: authorize, exchange.
    const enterprise = (await enterpriseAuthorize(await newUser(t)).expect(200)).body;
    secrets['enterprise pending_authorization_code'] = enterprise.pending_authorization_code;
    secrets['enterprise autostart_token'] = enterprise.autostart_token;
    secrets['enterprise access_token'] = (await enterpriseExchange(enterprise.pending_authorization_code).expect(200)).body.access_token;
    secrets['partner api_key'] = partnerKey;

    await expectNoTableHolds(secrets);
    // Nor any log line; the QR secrets, which must stay readable in the table, included.
    const qrSecrets: Array<{ qr_start_secret: string }> = await dataSource().query('SELECT qr_start_secret FROM eid_order');
    const logs = JSON.stringify(t.logs);
    expect([...Object.values(secrets), ...qrSecrets.map((r) => r.qr_start_secret)].filter((value) => logs.includes(value))).toEqual([]);
    const hashesIn = async (sql: string) => (await dataSource().query<Array<{ h: string }>>(sql)).map((r) => r.h);
    expect(await hashesIn('SELECT pending_code_hash AS h FROM psd2_authorization')).toEqual(
      expect.arrayContaining([auto.pendingCode, cancelled.pendingCode, qr.pendingCode].map(hashSecret)),
    );
    expect(await hashesIn('SELECT autostart_token_hash AS h FROM eid_order')).toEqual(
      expect.arrayContaining([auto.autoStartToken!, cancelled.autoStartToken!, signing.autostart_token].map(hashSecret)),
    );
    expect(await hashesIn('SELECT pending_code_hash AS h FROM enterprise_authorization')).toContain(hashSecret(enterprise.pending_authorization_code));
    expect(await hashesIn('SELECT autostart_token_hash AS h FROM enterprise_authorization')).toContain(hashSecret(enterprise.autostart_token));
  });

  it('no in-memory cache is keyed by a clear pending code (issue 13: the pending-code refs are keyed by hash)', async () => {
    const tpp = await Psd2Client.create(t);
    const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
    await tpp.status(pendingCode).expect(200);
    const mapKeys: string[] = [];
    for (const module of t.get(ModulesContainer).values()) {
      for (const wrapper of module.providers.values()) {
        const instance: unknown = wrapper.instance;
        if (!instance || typeof instance !== 'object') continue;
        for (const value of Object.values(instance)) {
          if (value instanceof Map) mapKeys.push(...[...value.keys()].filter((key) => typeof key === 'string'));
        }
      }
    }
    expect(mapKeys).toContain(hashSecret(pendingCode));
    expect(mapKeys).not.toContain(pendingCode);
  });

  it('a pending code or autostart token in capitals finds the same operation (it is hashed in its canonical lowercase text)', async () => {
    const tpp = await Psd2Client.create(t);
    const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
    await t.http.post('/sandbox/eid/open').send({ token: autoStartToken!.toUpperCase() }).expect(200);
    expect((await tpp.status(pendingCode.toUpperCase()).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
    const enterprise = (await enterpriseAuthorize(await newUser(t)).expect(200)).body;
    await enterpriseExchange(enterprise.pending_authorization_code.toUpperCase()).expect(200);
  });

  it('the migration hashes codes and tokens handed out before it, which keep working (issue 13)', async () => {
    const tpp = await Psd2Client.create(t);
    const user = await newUser(t, { eid: 'MANUAL' });
    const first = await tpp.pendingCode({ user }); // registers the TPP
    const [{ tpp_id: tppId }] = await dataSource().query('SELECT tpp_id FROM psd2_authorization WHERE pending_code_hash = $1', [hashSecret(first.pendingCode)]);
    const [{ id: partnerId }] = await dataSource().query('SELECT id FROM partner');
    // Made before the schema goes back: the service's statements are written for the current schema.
    const enterpriseUser = await newUser(t);
    const migrated = MIGRATIONS.findIndex((m) => m.name === HASH_MIGRATION);
    expect(migrated).toBeGreaterThan(0);
    for (let i = MIGRATIONS.length; i > migrated; i--) await dataSource().undoLastMigration({ transaction: 'each' });

    // Rows as the schema before the migration kept them: codes and tokens in clear.
    const old = { pendingCode: randomUUID(), autostartToken: randomUUID(), enterpriseCode: randomUUID(), enterpriseAutostart: randomUUID() };
    const orderId = randomUUID();
    const now = new Date(BASE_TIME);
    await dataSource().query(
      `INSERT INTO eid_order (id, kind, channel, personal_number, behaviour, requested_by, status, hint_code, started_at, autostart_token, qr_start_token, qr_start_secret)
       VALUES ($1, 'authentication', 'app', $2, 'MANUAL', 'test', 'PENDING', 'OUTSTANDING_TRANSACTION', $3, $4, $5, $6)`,
      [orderId, user, now, old.autostartToken, randomUUID(), randomBytes(32).toString('hex')],
    );
    await dataSource().query(
      `INSERT INTO psd2_authorization (pending_code, flow, tpp_id, eid_order_id, scopes, start_mode, end_user_ip, psu_ip_address, created_at)
       VALUES ($1, 'authenticate', $2, $3, '{AIS}', 'AUTO_START', $4, $4, $5)`,
      [old.pendingCode, tppId, orderId, PSU_IP, now],
    );
    await dataSource().query(
      `INSERT INTO enterprise_authorization (pending_code, partner_id, client_id, personal_number, scopes, autostart_token, created_at)
       VALUES ($1, $2, 'app', $3, '{loan.read}', $4, $5)`,
      [old.enterpriseCode, partnerId, enterpriseUser, old.enterpriseAutostart, now],
    );

    await dataSource().runMigrations({ transaction: 'each' });
    const [{ n }] = await dataSource().query('SELECT count(*)::int AS n FROM migrations');
    expect(n).toBe(MIGRATIONS.length);
    await expectNoTableHolds(old);
    const [order] = await dataSource().query('SELECT autostart_token_hash AS h FROM eid_order WHERE id = $1', [orderId]);
    expect(order.h).toBe(hashSecret(old.autostartToken));
    const [enterpriseRow] = await dataSource().query('SELECT autostart_token_hash AS h FROM enterprise_authorization WHERE pending_code_hash = $1', [hashSecret(old.enterpriseCode)]);
    expect(enterpriseRow.h).toBe(hashSecret(old.enterpriseAutostart));

    expect((await tpp.status(old.pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
    await t.http.post('/sandbox/eid/open').send({ token: old.autostartToken }).expect(200);
    expect((await tpp.status(old.pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
    await enterpriseExchange(old.enterpriseCode).expect(200);
  });
});
