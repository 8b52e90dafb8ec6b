import { createHmac } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { hashSecret, JobRunner } from '@app/common';
import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { certificate, newUser, PSU_IP, psd2App, Psd2Client } from './support/psd2';
import type { TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const QR = /^eid\.([0-9a-f-]{36})\.(\d+)\.([0-9a-f]{64})$/;

describe('PSD2 authentication (bank §2.1–2.3, §3.1, §4.1; contract §3–§5)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => ({ t, tpp } = await psd2App()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  /** QR_CODE status may be polled once per second of real time (contract §5): a QR client waits it out. */
  const nextQrPoll = () => setTimeout(1050);

  describe('start: authenticate and authorize (§2.1, §2.2)', () => {
    it.each([['authenticate'], ['authorize']] as const)('%s answers 200 with a UUID pending_code and, in AUTO_START, an auto_start_token', async (flow) => {
      const user = await newUser(t);
      const res = await tpp.start({ flow, user }).expect(200);
      expect(res.body).toEqual({ pending_code: expect.stringMatching(UUID), auto_start_token: expect.stringMatching(UUID) });
    });

    it('answers no auto_start_token in QR_CODE mode (§2.2)', async () => {
      const res = await tpp.start({ user: await newUser(t), mode: 'QR_CODE' }).expect(200);
      expect(res.body).toEqual({ pending_code: expect.stringMatching(UUID) });
    });

    it('accepts a scope narrower than the certificate\'s roles (§1)', async () => {
      await tpp.start({ user: await newUser(t), scopes: 'AIS' }).expect(200);
      await tpp.start({ user: await newUser(t), scopes: 'PIS' }).expect(200);
    });

    it('refuses a scope whose role the certificate lacks with 403 ROLE_NOT_IN_CERTIFICATE (§1, §7.4 rule 1)', async () => {
      const aiOnly = new Psd2Client(t, await certificate(['PSP_AI']));
      const user = await newUser(t);
      await aiOnly.start({ user, scopes: 'AIS' }).expect(200);
      expectProblem(await aiOnly.start({ user, scopes: 'AIS,PIS' }), 403, 'ROLE_NOT_IN_CERTIFICATE');
      expectProblem(await aiOnly.start({ user, flow: 'authorize', scopes: 'PIS' }), 403, 'ROLE_NOT_IN_CERTIFICATE');
    });

    it('refuses every scope of a certificate without the PSD2 QCStatement (contract §3)', async () => {
      const noRoles = new Psd2Client(t, await certificate([]));
      expectProblem(await noRoles.start({ user: await newUser(t), scopes: 'AIS' }), 403, 'ROLE_NOT_IN_CERTIFICATE');
    });

    it('refuses a scope without its role with the credentials, before the body\'s other fields and PSU-IP-Address are checked: 403 before 400 (contract §1, §3; bank §1)', async () => {
      const user = await newUser(t);
      const noRoles = new Psd2Client(t, await certificate([]));
      const aiOnly = new Psd2Client(t, await certificate(['PSP_AI']));
      const badIp = { end_user_ip: 'nope', start_mode: 'AUTO_START', scopes: 'AIS' };
      expectProblem(await noRoles.start({ user, body: badIp }), 403, 'ROLE_NOT_IN_CERTIFICATE');
      expectProblem(await aiOnly.start({ user, body: { ...badIp, scopes: 'AIS,PIS', unknown: 1 } }), 403, 'ROLE_NOT_IN_CERTIFICATE');
      expectProblem(await aiOnly.start({ user, flow: 'authorize', scopes: 'PIS', headers: { 'PSU-IP-Address': undefined } }), 403, 'ROLE_NOT_IN_CERTIFICATE');
      // Scopes the certificate covers, or scopes that cannot be read, leave the answer to the validation.
      expect(expectProblem(await aiOnly.start({ user, body: badIp }), 400, 'VALIDATION_FAILED').reason.message).toContain('end_user_ip');
      expect(expectProblem(await noRoles.start({ user, body: { ...badIp, scopes: 'AIS;PIS' } }), 400, 'VALIDATION_FAILED').reason.message).toContain('scopes');
    });

    it('answers 401 without a certificate, or with one that does not parse (contract §3)', async () => {
      const user = await newUser(t);
      expectProblem(await tpp.start({ user, headers: { 'X-PSD2-CLIENT-TEST-CERT': undefined } }), 401, 'UNAUTHORIZED');
      expectProblem(await tpp.start({ user, headers: { 'X-PSD2-CLIENT-TEST-CERT': 'bm90IGEgY2VydGlmaWNhdGU=' } }), 401, 'UNAUTHORIZED');
      expectProblem(await tpp.start({ user, headers: { 'X-PSD2-CLIENT-TEST-CERT': '%%%' } }), 401, 'UNAUTHORIZED');
    });

    it('accepts Base64 of a PEM certificate (contract §3)', async () => {
      const der = Buffer.from(tpp.cert, 'base64').toString('base64').match(/.{1,64}/g)!.join('\n');
      const pem = Buffer.from(`-----BEGIN CERTIFICATE-----\n${der}\n-----END CERTIFICATE-----\n`).toString('base64');
      await tpp.start({ user: await newUser(t), headers: { 'X-PSD2-CLIENT-TEST-CERT': pem } }).expect(200);
    });

    it.each([[undefined], ['not-an-ip'], ['300.1.1.1']])('refuses PSU-IP-Address %p with 400 naming the header (§4)', async (ip) => {
      expectValidationFailed(await tpp.start({ user: await newUser(t), headers: { 'PSU-IP-Address': ip } }), 'PSU-IP-Address');
    });

    it('accepts an IPv6 PSU-IP-Address and end_user_ip (§2.1, §4)', async () => {
      await tpp
        .start({ user: await newUser(t), headers: { 'PSU-IP-Address': '2001:db8::10' }, body: { end_user_ip: '2001:db8::10', start_mode: 'AUTO_START', scopes: 'AIS' } })
        .expect(200);
    });

    it.each([
      [{ end_user_ip: 'nope', start_mode: 'AUTO_START', scopes: 'AIS' }, 'end_user_ip'],
      [{ end_user_ip: PSU_IP, start_mode: 'REDIRECT', scopes: 'AIS' }, 'start_mode'],
      [{ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS,XYZ' }, 'scopes'],
      [{ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: '' }, 'scopes'],
      [{ end_user_ip: PSU_IP, start_mode: 'AUTO_START' }, 'scopes'],
      [{ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS', extra: 1 }, 'extra'],
    ])('refuses body %p with 400 naming %s (§2.1, contract §2)', async (body, field) => {
      expectValidationFailed(await tpp.start({ user: await newUser(t), body }), field);
    });

    it('uses the default sandbox user when X-Sandbox-User is absent, and 400 when it does not exist (contract §4)', async () => {
      expectValidationFailed(await tpp.start({}), 'X-Sandbox-User');
      await t.admin.put('/admin/users/191212121212', { name: 'Tolvan Tolvansson', kyc_completed: true }).expect((r) => expect([200, 201]).toContain(r.status));
      const token = await tpp.tokens({});
      expect(token.access_token).toEqual(expect.any(String));
    });

    it('refuses an X-Sandbox-User that is malformed or not a sandbox user with 400 naming the header (contract §2, §4)', async () => {
      expectValidationFailed(await tpp.start({ user: '19121212121' }), 'X-Sandbox-User');
      expectValidationFailed(await tpp.start({ user: newPersonalNumber() }), 'X-Sandbox-User');
    });

    it('creates nothing when refused (contract §2)', async () => {
      const before = await t.get(DataSource).query('SELECT count(*)::int AS n FROM psd2_authorization');
      await tpp.start({ user: await newUser(t), body: { end_user_ip: 'x', start_mode: 'AUTO_START', scopes: 'AIS' } }).expect(400);
      const after = await t.get(DataSource).query('SELECT count(*)::int AS n FROM psd2_authorization');
      expect(after[0].n).toBe(before[0].n);
    });
  });

  describe('status (§2.3) with every eid behaviour (contract §4)', () => {
    it('AUTO_COMPLETE: the first status answers COMPLETE without hint_code or qr_code', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t) });
      const res = await tpp.status(pendingCode).expect(200);
      expect(res.body).toEqual({ eid_auth_status: 'COMPLETE' });
    });

    it('a finished authentication answers its final state again (contract §4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t) });
      await tpp.status(pendingCode).expect(200);
      await t.clock.advance(600);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
    });

    it.each([['USER_CANCEL'], ['CERTIFICATE_ERR'], ['START_FAILED'], ['EXPIRED_TRANSACTION']])(
      'FAIL:%s: the first status answers FAILED with that hint code',
      async (hint) => {
        const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: `FAIL:${hint}` }) });
        expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: hint });
      },
    );

    it('COLLECT_ERROR: an authentication answers FAILED with hint UNKNOWN (contract §4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'COLLECT_ERROR' }) });
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'UNKNOWN' });
    });

    it('MANUAL: PENDING OUTSTANDING_TRANSACTION until opened in the simulator, USER_SIGN, then COMPLETE on approval (contract §4)', async () => {
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
    });

    it('MANUAL: a tester failing the order with USER_CANCEL makes status FAILED USER_CANCEL', async () => {
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/fail`).send({ hint_code: 'USER_CANCEL' }).expect(204);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'USER_CANCEL' });
    });

    it.each([['MANUAL'], ['NO_RESPONSE']])('%s: not opened within 30 seconds → FAILED START_FAILED, still PENDING at 29 s (§3.1, §8)', async (eid) => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid }) });
      await t.clock.advance(29);
      expect((await tpp.status(pendingCode).expect(200)).body.eid_auth_status).toBe('PENDING');
      await t.clock.advance(1);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'START_FAILED' });
    });

    it('an opened order not finished within 3 minutes → FAILED EXPIRED_TRANSACTION (contract §4)', async () => {
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      await t.clock.advance(179);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.clock.advance(1);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'EXPIRED_TRANSACTION' });
    });

    it('AUTO_COMPLETE read only after 3 minutes → FAILED EXPIRED_TRANSACTION ("within the 3-minute limit", contract §4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t) });
      await t.clock.advance(180);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'EXPIRED_TRANSACTION' });
    });

    it('the expiry job closes stale orders even when nobody polls (contract §4, §6)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'NO_RESPONSE' }) });
      const row = async () =>
        (await t.get(DataSource).query('SELECT o.status, o.hint_code FROM eid_order o JOIN psd2_authorization a ON a.eid_order_id = o.id WHERE a.pending_code_hash = $1', [hashSecret(pendingCode)]))[0];
      await t.clock.advance(31);
      expect(await row()).toEqual({ status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
      await t.get(JobRunner).runAllNow();
      expect(await row()).toEqual({ status: 'FAILED', hint_code: 'START_FAILED' });
    });

    it('the expiry job closes opened orders after 3 minutes with EXPIRED_TRANSACTION (contract §4)', async () => {
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      await t.clock.advance(180);
      await t.admin.post('/admin/jobs/run').expect(200);
      const [row] = await t.get(DataSource).query('SELECT o.hint_code FROM eid_order o JOIN psd2_authorization a ON a.eid_order_id = o.id WHERE a.pending_code_hash = $1', [hashSecret(pendingCode)]);
      expect(row.hint_code).toBe('EXPIRED_TRANSACTION');
    });

    it('QR_CODE mode: qr_code only while PENDING, a dynamic eid.<token>.<t>.<hmac> that changes with time (§2.3, contract §4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }), mode: 'QR_CODE' });
      const first = (await tpp.status(pendingCode).expect(200)).body;
      expect(first).toEqual({ eid_auth_status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION', qr_code: expect.stringMatching(QR) });
      expect(QR.exec(first.qr_code)![2]).toBe('0');
      await t.clock.advance(3);
      await nextQrPoll();
      const later = (await tpp.status(pendingCode).expect(200)).body;
      expect(QR.exec(later.qr_code)![2]).toBe('3');
      expect(later.qr_code).not.toBe(first.qr_code);
      const [{ qr_start_secret }] = await t.get(DataSource).query(
        'SELECT o.qr_start_secret FROM eid_order o JOIN psd2_authorization a ON a.eid_order_id = o.id WHERE a.pending_code_hash = $1',
        [hashSecret(pendingCode)],
      );
      expect(QR.exec(later.qr_code)![3]).toBe(createHmac('sha256', Buffer.from(qr_start_secret, 'hex')).update('3').digest('hex'));
      expect(JSON.stringify(later)).not.toContain(qr_start_secret);
    });

    it('AUTO_START mode never answers qr_code (§2.3)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expect((await tpp.status(pendingCode).expect(200)).body).not.toHaveProperty('qr_code');
    });

    it('QR_CODE mode: a status call less than a second after the last answered one is 429 POLLING_TOO_FAST with Retry-After: 1 (§4.1 rule 2, contract §5)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }), mode: 'QR_CODE' });
      await tpp.status(pendingCode).expect(200);
      const tooFast = await tpp.status(pendingCode);
      expectProblem(tooFast, 429, 'POLLING_TOO_FAST');
      expect(tooFast.headers['retry-after']).toBe('1');
      // The rate is about the client's real behaviour: moving the sandbox clock does not lift it.
      await t.clock.advance(3600);
      expectProblem(await tpp.status(pendingCode), 429, 'POLLING_TOO_FAST');
    });

    it('QR_CODE polling rate on real time: with a frozen sandbox clock a poll 1.1 s after the last is 200, an immediate one 429 (contract §5)', async () => {
      // The one real wait of the suite: the rule is measured on real time, which only waiting moves.
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }), mode: 'QR_CODE' });
      expect((await t.clock.read()).frozen).toBe(true);
      await tpp.status(pendingCode).expect(200);
      await setTimeout(1100); // real time: the rule's own unit
      expect((await tpp.status(pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'PENDING' });
      const tooFast = await tpp.status(pendingCode);
      expectProblem(tooFast, 429, 'POLLING_TOO_FAST');
      expect(tooFast.headers['retry-after']).toBe('1');
      await setTimeout(1100);
      await tpp.status(pendingCode).expect(200);
    });

    it('AUTO_START mode has no polling limit (§4.1 rule 2 is about QR_CODE)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await tpp.status(pendingCode).expect(200);
      await tpp.status(pendingCode).expect(200);
    });

    it('answers 404 for another TPP\'s pending code and for an unknown one; 400 for a malformed one (contract §2, §5)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      const other = await Psd2Client.create(t);
      expectProblem(await other.status(pendingCode), 404, 'NOT_FOUND');
      expectProblem(await tpp.status('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 404, 'NOT_FOUND');
      expectValidationFailed(await tpp.status('not-a-uuid'), 'pending_code');
    });

    it('needs PSU-IP-Address and the certificate (§4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expectValidationFailed(await tpp.status(pendingCode, { 'PSU-IP-Address': undefined }), 'PSU-IP-Address');
      expectProblem(await tpp.status(pendingCode, { 'X-PSD2-CLIENT-TEST-CERT': undefined }), 401);
    });
  });

  describe('cancel (§3.1, §7.4 rule 2)', () => {
    it('answers 204; status then answers FAILED CANCELLED (contract §5)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await tpp.cancel(pendingCode).expect(204);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'CANCELLED' });
    });

    it('refuses to cancel a COMPLETE or FAILED authentication with 409 INVALID_STATE (§7.4 rule 2)', async () => {
      const complete = await tpp.completedCode({ user: await newUser(t) });
      expectProblem(await tpp.cancel(complete), 409, 'INVALID_STATE');
      const { pendingCode: failed } = await tpp.pendingCode({ user: await newUser(t, { eid: 'FAIL:USER_CANCEL' }) });
      await tpp.status(failed).expect(200);
      expectProblem(await tpp.cancel(failed), 409, 'INVALID_STATE');
      const { pendingCode: cancelled } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await tpp.cancel(cancelled).expect(204);
      expectProblem(await tpp.cancel(cancelled), 409, 'INVALID_STATE');
    });

    it('refuses to cancel an authentication that timed out: it is FAILED (contract §4)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'NO_RESPONSE' }) });
      await t.clock.advance(30);
      expectProblem(await tpp.cancel(pendingCode), 409, 'INVALID_STATE');
    });

    it('answers 404 for another TPP\'s or an unknown pending code (contract §5)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expectProblem(await (await Psd2Client.create(t)).cancel(pendingCode), 404, 'NOT_FOUND');
      expectProblem(await tpp.cancel('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 404, 'NOT_FOUND');
      await tpp.status(pendingCode).expect(200).expect((r) => expect(r.body.eid_auth_status).toBe('PENDING'));
    });
  });

  describe('end to end', () => {
    it('QR_CODE: start, scan the QR code in the app, approve, status COMPLETE, exchange for tokens (bank §4.1, contract §4)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ flow: 'authorize', user, mode: 'QR_CODE', scopes: 'AIS' });
      expect(autoStartToken).toBeUndefined();
      await t.clock.advance(2);
      const { qr_code } = (await tpp.status(pendingCode).expect(200)).body;
      const opened = await t.http.post('/sandbox/eid/open').send({ token: qr_code }).expect(200);
      await t.clock.advance(1);
      await nextQrPoll();
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN', qr_code: expect.stringMatching(QR) });
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      await t.clock.advance(1);
      await nextQrPoll();
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
      const tokens = (await tpp.exchange(pendingCode).expect(200)).body;
      expect(tokens).toMatchObject({ expires_in: 300, scope: 'AIS', refresh_token: expect.any(String) });
    });
  });

  describe('certificates and TPPs (contract §3)', () => {
    it('registers a TPP on first use, identified by the organizationIdentifier: two certificates of one organisation are one TPP', async () => {
      const org = 'PSDSE-FINA-99001';
      const first = new Psd2Client(t, await certificate(['PSP_AI'], org));
      const second = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], org));
      const { pendingCode } = await first.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }), scopes: 'AIS' });
      await second.status(pendingCode).expect(200);
      const rows = await t.get(DataSource).query('SELECT count(*)::int AS n FROM tpp WHERE identifier = $1', [org]);
      expect(rows[0].n).toBe(1);
    });
  });
});
