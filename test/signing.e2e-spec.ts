import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { ParticipantService } from '@app/signing';
import { newPartner } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { newUser } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { RecordingProcess, RecordingProcessModule } from './support/signing-process';
import { BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

const IP_A = '198.51.100.1';
const IP_B = '198.51.100.2';
const MESSAGE = 'An identification or signing for this personal number is already started. Please try again.';
const QR = /^eid\.[0-9a-f-]{36}\.\d+\.[0-9a-f]{64}$/;

describe('partner signing (bank §2.5, §3.2, §4.4, §7.2; contract §4, §11)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'on' }, imports: [RecordingProcessModule], frozenAt: BASE_TIME });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  async function partner(): Promise<{ id: string; key: string }> {
    const { partner_id, api_key } = await newPartner(t);
    return { id: partner_id, key: api_key };
  }

  /** A participant of a test process, for a fresh user with this eid behaviour (busy elsewhere if asked). */
  async function participant(options: { eid?: string; busy?: boolean; user?: string; of?: { id: string; key: string } } = {}) {
    const p = options.of ?? (await partner());
    const user = options.user ?? (await newUser(t, { eid: options.eid ?? 'MANUAL', busy: options.busy }));
    const processId = randomUUID();
    const [registered] = await t.get(ParticipantService).register({ kind: 'test_process', id: processId, partnerId: p.id }, [user]);
    return { partner: p, user, id: registered.id, processId };
  }
  type P = Awaited<ReturnType<typeof participant>>;

  const call = (path: string, p: P, body: object, ip = IP_A, prefix = '/signing/1.0') =>
    t.http.post(`${prefix}/${path}`).set({ Authorization: `Bearer ${p.partner.key}`, 'X-Forwarded-For': ip }).send(body);
  const start = (p: P, ip = IP_A) => call('start', p, { participant_id: p.id }, ip);
  const phone = (p: P, ip = IP_A, initiator = 'RP') => call('start/phone', p, { participant_id: p.id, call_initiator: initiator }, ip);
  const collect = (p: P) => call('collect', p, { participant_id: p.id });
  const cancel = (p: P, ip = IP_A) => call('cancel', p, { participant_id: p.id }, ip);
  const expect409 = (res: Awaited<ReturnType<typeof start>>) => {
    const problem = expectProblem(res, 409, 'RFA4_SIGNING_IN_PROGRESS');
    expect(problem.reason.message).toBe(MESSAGE);
  };

  describe('start and collect (bank §2.5, §3.2)', () => {
    it('start answers 200 { autostart_token, qr_string }; collect PENDING OUTSTANDING_TRANSACTION with a fresh qr_string', async () => {
      const p = await participant();
      const res = await start(p).expect(200);
      expect(res.body).toEqual({ autostart_token: expect.stringMatching(/^[0-9a-f-]{36}$/), qr_string: expect.stringMatching(QR) });
      await t.clock.advance(2);
      const polled = await collect(p).expect(200);
      expect(polled.body).toEqual({ status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION', qr_string: expect.stringMatching(QR) });
      expect(polled.body.qr_string).not.toBe(res.body.qr_string);
    });

    it('AUTO_COMPLETE: collect COMPLETE with signed_at (Stockholm offset, to the second), no hint, no qr_string; the participant is signed', async () => {
      const p = await participant({ eid: 'AUTO_COMPLETE' });
      await start(p).expect(200);
      const res = await collect(p).expect(200);
      expect(res.body).toEqual({ status: 'COMPLETE', signed_at: '2026-11-24T10:00:00+01:00' });
      const [listed] = await t.get(ParticipantService).list({ kind: 'test_process', id: p.processId });
      expect(listed.signedAt?.toISOString()).toBe('2026-11-24T09:00:00.000Z');
    });

    it('tells the owning process once, through the completion seam', async () => {
      const p = await participant({ eid: 'AUTO_COMPLETE' });
      await start(p).expect(200);
      await collect(p).expect(200);
      await collect(p).expect(200);
      const events = t.get(RecordingProcess).signed.filter((e) => e.participantId === p.id);
      expect(events).toEqual([{ participantId: p.id, process: { kind: 'test_process', id: p.processId, partnerId: p.partner.id }, personalNumber: p.user, signedAt: expect.any(Date) }]);
    });

    it('MANUAL: opened in the simulator (USER_SIGN), approved, COMPLETE', async () => {
      const p = await participant();
      const { autostart_token } = (await start(p).expect(200)).body;
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200);
      expect(opened.body.kind).toBe('signing');
      expect((await collect(p).expect(200)).body).toMatchObject({ status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      expect((await collect(p).expect(200)).body).toMatchObject({ status: 'COMPLETE', signed_at: expect.any(String) });
    });

    it('a signing takes effect when its order completes in the eid app: signed at the completion instant, the process told once, without any collect; a later collect answers COMPLETE and records nothing twice (bank §3.2)', async () => {
      const p = await participant();
      const { autostart_token } = (await start(p).expect(200)).body;
      const { operation_id } = (await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200)).body;
      await t.clock.advance(7);
      await t.http.post(`/sandbox/eid/operations/${operation_id}/complete`).expect(204);
      const told = () => t.get(RecordingProcess).signed.filter((e) => e.participantId === p.id);
      expect(told()).toEqual([{ participantId: p.id, process: { kind: 'test_process', id: p.processId, partnerId: p.partner.id }, personalNumber: p.user, signedAt: new Date('2026-11-24T09:00:07Z') }]);
      const [listed] = await t.get(ParticipantService).list({ kind: 'test_process', id: p.processId });
      expect(listed.signedAt?.toISOString()).toBe('2026-11-24T09:00:07.000Z');
      await t.clock.advance(2);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'COMPLETE', signed_at: '2026-11-24T10:00:07+01:00' });
      expect((await collect(p).expect(200)).body).toEqual({ status: 'COMPLETE', signed_at: '2026-11-24T10:00:07+01:00' });
      expect(told()).toHaveLength(1);
      expect((await t.get(ParticipantService).list({ kind: 'test_process', id: p.processId }))[0].signedAt?.toISOString()).toBe('2026-11-24T09:00:07.000Z');
    });

    it('an order that fails in the eid app signs nobody, and a PENDING one neither (bank §3.2)', async () => {
      const p = await participant();
      const { autostart_token } = (await start(p).expect(200)).body;
      const { operation_id } = (await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200)).body;
      expect((await collect(p).expect(200)).body).toMatchObject({ status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.http.post(`/sandbox/eid/operations/${operation_id}/fail`).send({ hint_code: 'USER_CANCEL' }).expect(204);
      expect(t.get(RecordingProcess).signed.filter((e) => e.participantId === p.id)).toEqual([]);
      expect((await t.get(ParticipantService).list({ kind: 'test_process', id: p.processId }))[0].signedAt).toBeNull();
    });

    it('the simulator refuses to open a signing as somebody else (403, contract §4)', async () => {
      const p = await participant();
      const { autostart_token } = (await start(p).expect(200)).body;
      expectProblem(await t.http.post('/sandbox/eid/open').send({ token: autostart_token, personal_number: await newUser(t) }), 403, 'FORBIDDEN');
    });

    it('FAIL:USER_CANCEL: collect FAILED with hint USER_CANCEL', async () => {
      const p = await participant({ eid: 'FAIL:USER_CANCEL' });
      await start(p).expect(200);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'USER_CANCEL' });
    });

    it('COLLECT_ERROR ends the signing: collect COLLECT_ERROR, then a new start succeeds (bank §3.2)', async () => {
      const p = await participant({ eid: 'COLLECT_ERROR' });
      await start(p).expect(200);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'COLLECT_ERROR' });
      await start(p).expect(200);
    });

    it('not opened within 30 s: FAILED START_FAILED (contract §4)', async () => {
      const p = await participant();
      await start(p).expect(200);
      await t.clock.advance(30);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'START_FAILED' });
    });

    it('open and unfinished after 3 minutes: FAILED EXPIRED_TRANSACTION (contract §4)', async () => {
      const q = await participant();
      const { autostart_token } = (await start(q).expect(200)).body;
      await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200);
      await t.clock.advance(180);
      expect((await collect(q).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'EXPIRED_TRANSACTION' });
    });

    it('collect before any start is 409 INVALID_STATE; a start after signing is 409 INVALID_STATE', async () => {
      const p = await participant({ eid: 'AUTO_COMPLETE' });
      expectProblem(await collect(p), 409, 'INVALID_STATE');
      await start(p).expect(200);
      await collect(p).expect(200);
      expectProblem(await start(p), 409, 'INVALID_STATE');
    });

    it('asks the owning process before a start: 409 INVALID_STATE when its state takes no signature, 404 when it is gone, on start and start/phone (contract §2)', async () => {
      const closed = await participant();
      const gone = await participant();
      t.get(RecordingProcess).admissions.set(closed.processId, { verdict: 'closed', why: 'the test process is EXPIRED' });
      t.get(RecordingProcess).admissions.set(gone.processId, { verdict: 'gone' });
      for (const refused of [await start(closed), await phone(closed)]) {
        expect(expectProblem(refused, 409, 'INVALID_STATE').reason.message).toBe(`Participant ${closed.id} cannot sign: the test process is EXPIRED.`);
      }
      expectProblem(await start(gone), 404, 'NOT_FOUND');
      expectProblem(await phone(gone), 404, 'NOT_FOUND');
      expect((await t.http.get('/sandbox/eid/operations').query({ personal_number: closed.user }).expect(200)).body.operations).toEqual([]);
      t.get(RecordingProcess).admissions.delete(closed.processId);
      await start(closed).expect(200);
    });

    it('serves the same routes under /partner/signing/1.0 (contract §1)', async () => {
      const p = await participant({ eid: 'AUTO_COMPLETE' });
      await call('start', p, { participant_id: p.id }, IP_A, '/partner/signing/1.0').expect(200);
      expect((await call('collect', p, { participant_id: p.id }, IP_A, '/partner/signing/1.0').expect(200)).body.status).toBe('COMPLETE');
    });
  });

  describe('phone signings (bank §4.4; contract §4)', () => {
    it('204; collect INITIATED (no hint, no qr_string) until picked up, USER_CALL_CONFIRM, USER_SIGN after the call is confirmed, COMPLETE', async () => {
      const p = await participant();
      const res = await phone(p).expect(204);
      expect(res.text).toBe('');
      expect((await collect(p).expect(200)).body).toEqual({ status: 'INITIATED' });
      const listed = await t.http.get('/sandbox/eid/operations').query({ personal_number: p.user }).expect(200);
      const operation = listed.body.operations[0].operation_id;
      await t.http.post(`/sandbox/eid/operations/${operation}/open`).expect(204);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'PENDING', hint_code: 'USER_CALL_CONFIRM' });
      await t.http.post(`/sandbox/eid/operations/${operation}/confirm-call`).expect(204);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.http.post(`/sandbox/eid/operations/${operation}/complete`).expect(204);
      expect((await collect(p).expect(200)).body).toMatchObject({ status: 'COMPLETE', signed_at: expect.any(String) });
    });

    it('a declined call is FAILED USER_DECLINED_CALL', async () => {
      const p = await participant();
      await phone(p, IP_A, 'USER').expect(204);
      const operation = (await t.http.get('/sandbox/eid/operations').query({ personal_number: p.user }).expect(200)).body.operations[0].operation_id;
      await t.http.post(`/sandbox/eid/operations/${operation}/decline-call`).expect(204);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'USER_DECLINED_CALL' });
    });

    it('refuses a call_initiator other than RP or USER with 400', async () => {
      const p = await participant();
      expectValidationFailed(await call('start/phone', p, { participant_id: p.id, call_initiator: 'BANK' }), 'call_initiator');
    });
  });

  describe('the 409 rules (bank §7.2, contract §11)', () => {
    it('start, start from the same IP: 409 the first time, then the next start replaces the order: 200, 409, 200, 409, 200', async () => {
      const p = await participant();
      const outcomes = [];
      for (let i = 0; i < 5; i++) outcomes.push((await start(p)).status);
      expect(outcomes).toEqual([200, 409, 200, 409, 200]);
    });

    it('the replaced order answers FAILED CANCELLED to whoever collects it (contract §11)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const first = await participant({ user });
      const second = await participant({ user });
      await start(first).expect(200);
      expect409(await start(second));
      await start(second).expect(200);
      expect((await collect(first).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'CANCELLED' });
      expect((await collect(second).expect(200)).body.status).toBe('PENDING');
    });

    it('start from A, start from B: 409 and the person is blocked 180 s for start, start/phone and cancel; a call at block end succeeds, a millisecond before it is refused (contract §6, §11)', async () => {
      const p = await participant();
      await start(p, IP_A).expect(200);
      expect409(await start(p, IP_B));
      await t.clock.advance(179.999);
      expect409(await start(p, IP_A));
      expect409(await phone(p, IP_A));
      expect409(await cancel(p, IP_A));
      await t.clock.advance(0.001);
      await start(p, IP_A).expect(200);
    });

    it('the block is shared by every partner: another partner\'s participant for the person is refused too', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const p = await participant({ user });
      const other = await participant({ user });
      await start(p, IP_A).expect(200);
      expect409(await start(p, IP_B));
      expect409(await start(other, IP_A));
    });

    it('phone, phone: 409 and blocked 60 s; a millisecond before 60 s still refused, at exactly 60 s a new phone signing starts (contract §6, §11)', async () => {
      const p = await participant();
      await phone(p).expect(204);
      expect409(await phone(p));
      await t.clock.advance(59.999);
      expect409(await phone(p));
      expect409(await start(p));
      await t.clock.advance(0.001);
      await phone(p).expect(204);
    });

    it('phone, phone with the first order still open at the block\'s end (a user who opened it, or an AUTO_COMPLETE one never collected): at 60 s the call succeeds, replacing it (contract §11: a call at block end succeeds)', async () => {
      for (const eid of ['MANUAL', 'AUTO_COMPLETE']) {
        const p = await participant({ eid });
        await phone(p).expect(204);
        if (eid === 'MANUAL') {
          // The user picks up the call: the order is opened, so it does not fail at 30 s unopened.
          const listed = await t.http.get('/sandbox/eid/operations').query({ personal_number: p.user }).expect(200);
          await t.http.post(`/sandbox/eid/operations/${listed.body.operations[0].operation_id}/open`).expect(204);
        }
        expect409(await phone(p));
        await t.clock.advance(59.999);
        expect409(await phone(p));
        await t.clock.advance(0.001);
        await phone(p).expect(204);
        expect((await collect(p).expect(200)).body.status).not.toBe('FAILED');
      }
    });

    it('start then start/phone, or phone then start: 409 without a block', async () => {
      const p = await participant();
      await start(p).expect(200);
      expect409(await phone(p));
      await cancel(p).expect(204);
      await phone(p).expect(204);
      expect409(await start(p));
      await cancel(p).expect(204);
      await start(p).expect(200);
    });

    it('cancel answers 204 also when nothing is open, and a new start then succeeds (contract §11)', async () => {
      const p = await participant();
      await cancel(p).expect(204);
      await start(p).expect(200);
      await cancel(p).expect(204);
      expect((await collect(p).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'CANCELLED' });
      await start(p).expect(200);
    });

    it('a busy_elsewhere user is refused on start and start/phone (contract §4)', async () => {
      const p = await participant({ busy: true });
      expect409(await start(p));
      expect409(await phone(p));
    });

    it('a finished order does not count: after COMPLETE or FAILED a new start succeeds', async () => {
      const p = await participant({ eid: 'FAIL:CERTIFICATE_ERR' });
      await start(p).expect(200);
      await collect(p).expect(200);
      await start(p).expect(200);
    });
  });

  describe('partner access (contract §3)', () => {
    it('answers 401 without a key or with a wrong one', async () => {
      const p = await participant();
      expectProblem(await t.http.post('/signing/1.0/start').send({ participant_id: p.id }), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.post('/signing/1.0/start').set('Authorization', 'Bearer wrong-key-000000000').send({ participant_id: p.id }), 401, 'UNAUTHORIZED');
    });

    it('another partner\'s participant is 404 on every call; an unknown one 404; a malformed id 400', async () => {
      const p = await participant();
      const stranger = { ...p, partner: await partner() };
      for (const res of [await start(stranger), await phone(stranger), await collect(stranger), await cancel(stranger)]) expectProblem(res, 404, 'NOT_FOUND');
      expectProblem(await start({ ...p, id: randomUUID() }), 404, 'NOT_FOUND');
      expectValidationFailed(await start({ ...p, id: 'nope' }), 'participant_id');
    });

    it('collect reads the order only through the partner\'s own participant: while it signs, another partner\'s collect is 404, an unknown id 404 (not 409), the owner\'s 200', async () => {
      const p = await participant();
      await start(p).expect(200);
      expectProblem(await collect({ ...p, partner: await partner() }), 404, 'NOT_FOUND');
      expectProblem(await collect({ ...p, id: randomUUID() }), 404, 'NOT_FOUND');
      expect((await collect(p).expect(200)).body).toMatchObject({ status: 'PENDING' });
    });
  });
});

describe('the caller IP is the TCP peer without TRUST_PROXY (contract §11)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    port = ((await t.app.listen(0, '127.0.0.1')).address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  function startFrom(localAddress: string, key: string, participantId: string, forwardedFor?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const body = JSON.stringify({ participant_id: participantId });
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          localAddress,
          path: '/signing/1.0/start',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('two starts from 127.0.0.1 and 127.0.0.2 are starts from different IPs (block); X-Forwarded-For is ignored', async () => {
    const { partner_id, api_key } = await newPartner(t);
    const user = await newUser(t, { eid: 'MANUAL' });
    const [p] = await t.get(ParticipantService).register({ kind: 'test_process', id: randomUUID(), partnerId: partner_id }, [user]);
    expect(await startFrom('127.0.0.1', api_key, p.id)).toBe(200);
    expect(await startFrom('127.0.0.1', api_key, p.id, '203.0.113.9')).toBe(409); // same peer: the retry is armed
    expect(await startFrom('127.0.0.2', api_key, p.id)).toBe(409); // another peer: blocked
    expect(await startFrom('127.0.0.1', api_key, p.id)).toBe(409); // blocked, although the retry was armed
    const [person] = await t.get(DataSource).query('SELECT blocked_until FROM signing_person WHERE personal_number = $1', [user]);
    expect(person.blocked_until.toISOString()).toBe('2026-11-24T09:03:00.000Z');
  });
});

describeOnServer('concurrent starts for one person on two instances (contract §11)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances({ env: { TRUST_PROXY: 'on' }, frozenAt: BASE_TIME })));
  afterAll(() => closeApps(a, b));

  it('leave exactly one order open; every other call is 409', async () => {
    const { partner_id, api_key } = await newPartner(a);
    const user = await newUser(a, { eid: 'MANUAL' });
    const participants = await a.get(ParticipantService).register({ kind: 'test_process', id: randomUUID(), partnerId: partner_id }, [user, user, user, user]);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).http
          .post('/signing/1.0/start')
          .set({ Authorization: `Bearer ${api_key}`, 'X-Forwarded-For': `198.51.100.${i % 3}` })
          .send({ participant_id: participants[i % 4].id }),
      ),
    );
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || (r.status === 409 && r.body.reason.code === 'RFA4_SIGNING_IN_PROGRESS'))).toBe(true);
    const open = await a.get(DataSource).query(`SELECT count(*)::int AS n FROM eid_order WHERE personal_number = $1 AND status IN ('INITIATED', 'PENDING')`, [user]);
    expect(open[0].n).toBe(1);
  });
});
