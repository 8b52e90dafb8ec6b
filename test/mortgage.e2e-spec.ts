import { createHash, randomUUID } from 'node:crypto';
import { load } from 'js-yaml';
import { DataSource } from 'typeorm';
import { newPartner, partnerApp } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { newUser } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The credentials of a partner call. */
const partner = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A pre-approval of one new applicant, accepted and signed: PROCESSING, its decision due (contract §9). */
async function signedPreApproval(app: TestApp, key: string): Promise<string> {
  const auth = partner(key);
  const applicants = [{ personal_number: await newUser(app), yearly_income: 1_000_000 }];
  const id = (await app.http.post('/mortgage/2.0/pre-approval').set(auth).send({ applicants, loan_amount: 1_000_000 }).expect(201)).body.id;
  const [p] = (await app.http.post(`/mortgage/2.0/pre-approval/${id}/acceptance`).set(auth).send({ with_unsecured_loan: false }).expect(200)).body.signing_process.participants;
  await app.http.post('/signing/1.0/start').set(auth).send({ participant_id: p.id }).expect(200);
  await app.http.post('/signing/1.0/collect').set(auth).send({ participant_id: p.id }).expect(200);
  return id;
}

describe('mortgage pre-approval (bank §2.6, §3.3, §4.5; contract §9)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => ({ t, key } = await partnerApp()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const auth = (k = key) => partner(k);
  const runJobs = () => t.admin.post('/admin/jobs/run').expect(200);
  const create = (body: object, prefix = '/mortgage/2.0', k = key) => t.http.post(`${prefix}/pre-approval`).set(auth(k)).send(body);
  const accept = (id: string, withUnsecured = false, k = key) => t.http.post(`/mortgage/2.0/pre-approval/${id}/acceptance`).set(auth(k)).send({ with_unsecured_loan: withUnsecured });
  const status = (id: string, k = key) => t.http.get(`/mortgage/2.0/pre-approval/${id}/status`).set(auth(k));
  /** Still PROCESSING a millisecond before 30 s, APPROVED at exactly 30 s (PRE_APPROVAL_DECISION_DELAY_S, contract §6, §9), its reference kept. */
  async function expectApprovedThirtySecondsOn(id: string, customerServiceReference: string): Promise<void> {
    await t.clock.advance(29.999);
    await runJobs();
    expect((await status(id).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
    await t.clock.advance(0.001);
    await runJobs();
    expect((await status(id).expect(200)).body).toMatchObject({ status: { type: 'APPROVED' }, customer_service_reference: customerServiceReference });
  }
  const sign = async (participantId: string) => {
    await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participantId }).expect(200);
    expect((await t.http.post('/signing/1.0/collect').set(auth()).send({ participant_id: participantId }).expect(200)).body.status).toBe('COMPLETE');
  };
  const applicant = async (income = 800_000, options: { credit?: string; eid?: string } = {}) => {
    const pn = await newUser(t, { eid: options.eid ?? 'AUTO_COMPLETE', credit: options.credit });
    return { personal_number: pn, yearly_income: income };
  };

  async function accepted(applicants: Array<{ personal_number: string; yearly_income: number }>, loan = 2_000_000, unsecured?: number, withUnsecured = false) {
    const id = (await create({ applicants, loan_amount: loan, ...(unsecured ? { unsecured_loan_amount: unsecured } : {}) }).expect(201)).body.id;
    const participants = (await accept(id, withUnsecured).expect(200)).body.signing_process.participants as Array<{ id: string; personal_number: string }>;
    return { id, participants };
  }

  describe('POST /mortgage/2.0/pre-approval', () => {
    it('answers 201 { id, status { type OFFER_GENERATED }, offer, expiry_date 30 days on, UTC to the second } (contract §9)', async () => {
      const res = await create({ applicants: [await applicant()], loan_amount: 2_000_000 }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        status: { type: 'OFFER_GENERATED' },
        offer: { without_unsecured_loan: { loan_amount: 2_000_000, unsecured_loan_amount: 0, interest_rate: 3.45, effective_interest_rate: 3.51, monthly_cost: 7000.37 } },
        expiry_date: '2026-12-24T09:00:00Z',
      });
    });

    it('offers a second variant with the unsecured loan when one is asked for (contract §9)', async () => {
      const res = await create({ applicants: [await applicant()], loan_amount: 2_000_000, unsecured_loan_amount: 100_000 }).expect(201);
      expect(res.body.offer.with_unsecured_loan).toMatchObject({ loan_amount: 2_000_000, unsecured_loan_amount: 100_000 });
    });

    it.each([
      [{ applicants: [], loan_amount: 1 }, 'applicants'],
      [{ loan_amount: 1 }, 'applicants'],
      [{ applicants: [{ personal_number: '191212121212', yearly_income: 1.5 }], loan_amount: 1 }, 'applicants.0.yearly_income'],
      [{ applicants: [{ personal_number: '191212121212', yearly_income: 1 }], loan_amount: 100.5 }, 'loan_amount'],
      [{ applicants: [{ personal_number: '191212121212', yearly_income: 1 }], loan_amount: 0 }, 'loan_amount'],
      [{ applicants: [[]], loan_amount: 1 }, 'applicants.0'],
      [{ applicants: [[{ personal_number: '191212121212', yearly_income: 1 }]], loan_amount: 1 }, 'applicants.0'],
      [{ applicants: [1], loan_amount: 1 }, 'applicants.0'],
    ])('refuses %p with 400 naming %s', async (body, field) => {
      expectValidationFailed(await create(body), field);
    });

    it('refuses three applicants, an unknown sandbox user, a bad personal number and the same person twice (contract §9)', async () => {
      const a = await applicant();
      expectValidationFailed(await create({ applicants: [a, await applicant(), await applicant()], loan_amount: 1 }), 'applicants');
      expectValidationFailed(await create({ applicants: [a, { personal_number: '199001011239', yearly_income: 1 }], loan_amount: 1 }), 'applicants.1.personal_number');
      expectValidationFailed(await create({ applicants: [{ personal_number: '191212121213', yearly_income: 1 }], loan_amount: 1 }), 'applicants.0.personal_number');
      expectValidationFailed(await create({ applicants: [a, a], loan_amount: 1 }), 'applicants.1.personal_number');
    });

    it('needs the partner key (401) (contract §3)', async () => {
      expectProblem(await t.http.post('/mortgage/2.0/pre-approval').send({}), 401, 'UNAUTHORIZED');
    });

    it('serves /partner/mortgage/2.0 too (contract §1)', async () => {
      await create({ applicants: [await applicant()], loan_amount: 1_000_000 }, '/partner/mortgage/2.0').expect(201);
    });
  });

  describe('status and acceptance', () => {
    it('before acceptance: OFFER_GENERATED with no participants (contract §9)', async () => {
      const { id } = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body;
      expect((await status(id).expect(200)).body).toEqual({ status: { type: 'OFFER_GENERATED' }, expiry_date: '2026-12-24T09:00:00Z', signing_process: { participants: [] } });
    });

    it('acceptance answers AcceptPreApprovalResponseV2 with a participant per applicant (bank §2.6)', async () => {
      const a = await applicant();
      const b = await applicant();
      const { id } = (await create({ applicants: [a, b], loan_amount: 3_000_000 }).expect(201)).body;
      const res = await accept(id).expect(200);
      expect(res.body).toEqual({
        status: 'AWAITING_ACCEPTANCE',
        signing_process: { participants: [{ personal_number: a.personal_number, id: expect.stringMatching(UUID) }, { personal_number: b.personal_number, id: expect.stringMatching(UUID) }] },
        expiry_date: '2026-12-24T09:00:00Z',
      });
      expect((await status(id).expect(200)).body).toMatchObject({
        status: { type: 'AWAITING_ACCEPTANCE' },
        signing_process: { participants: [{ personal_number: a.personal_number, signed: false }, { personal_number: b.personal_number, signed: false }] },
      });
    });

    it('true without an unsecured variant is 400; a missing flag 400 (contract §9)', async () => {
      const { id } = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body;
      expectValidationFailed(await accept(id, true), 'with_unsecured_loan');
      expectValidationFailed(await t.http.post(`/mortgage/2.0/pre-approval/${id}/acceptance`).set(auth()).send({}), 'with_unsecured_loan');
    });

    it('accepting twice is 409 (contract §9)', async () => {
      const { id } = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body;
      await accept(id).expect(200);
      expectProblem(await accept(id), 409, 'INVALID_STATE');
    });

    it('another partner\'s pre-approval is 404 on status and acceptance; a malformed id 400 (contract §2)', async () => {
      const { id } = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body;
      const other = (await newPartner(t)).api_key;
      expectProblem(await status(id, other), 404, 'NOT_FOUND');
      expectProblem(await accept(id, false, other), 404, 'NOT_FOUND');
      expectProblem(await status(randomUUID()), 404, 'NOT_FOUND');
      expectValidationFailed(await status('nope'), 'id');
    });
  });

  describe('the §4.5 flow', () => {
    it('one applicant: signing moves AWAITING_ACCEPTANCE straight to PROCESSING with a customer_service_reference; the job decides after 30 s', async () => {
      const { id, participants } = await accepted([await applicant(800_000)]);
      await sign(participants[0].id);
      const processing = (await status(id).expect(200)).body;
      expect(processing).toEqual({
        status: { type: 'PROCESSING' },
        customer_service_reference: expect.stringMatching(/^PA-[A-Z0-9]{8}$/),
        expiry_date: '2026-12-24T09:00:00Z',
        signing_process: { participants: [{ personal_number: participants[0].personal_number, id: participants[0].id, signed: true, signed_at: '2026-11-24T09:00:00Z' }] },
      });
      await expectApprovedThirtySecondsOn(id, processing.customer_service_reference);
    });

    it('two applicants: SIGNING_ONGOING after the first signature, PROCESSING after the second (bank §3.3)', async () => {
      const { id, participants } = await accepted([await applicant(), await applicant()]);
      await sign(participants[1].id);
      const ongoing = (await status(id).expect(200)).body;
      expect(ongoing.status).toEqual({ type: 'SIGNING_ONGOING' });
      expect(ongoing).not.toHaveProperty('customer_service_reference');
      expect(ongoing.signing_process.participants.map((p: { signed: boolean }) => p.signed)).toEqual([false, true]);
      await t.clock.advance(60);
      await sign(participants[0].id);
      const done = (await status(id).expect(200)).body;
      expect(done.status).toEqual({ type: 'PROCESSING' });
      expect(done.signing_process.participants.map((p: { signed_at: string }) => p.signed_at)).toEqual(['2026-11-24T09:01:00Z', '2026-11-24T09:00:00Z']);
    });

    it('decides by the rule: debt of exactly 5.5 times the summed income is APPROVED, above it REJECTED (contract §9)', async () => {
      const exact = await accepted([await applicant(300_000), await applicant(100_000)], 2_200_000);
      const above = await accepted([await applicant(400_000)], 2_200_001);
      for (const p of [...exact.participants, ...above.participants]) await sign(p.id);
      await t.clock.advance(30);
      await runJobs();
      expect((await status(exact.id).expect(200)).body.status).toEqual({ type: 'APPROVED' });
      expect((await status(above.id).expect(200)).body.status).toEqual({ type: 'REJECTED' });
    });

    it('counts the unsecured loan in the debt only when its variant was accepted (contract §9)', async () => {
      const without = await accepted([await applicant(400_000)], 2_200_000, 100_000, false);
      const withIt = await accepted([await applicant(400_000)], 2_200_000, 100_000, true);
      for (const p of [...without.participants, ...withIt.participants]) await sign(p.id);
      await t.clock.advance(30);
      await runJobs();
      expect((await status(without.id).expect(200)).body.status).toEqual({ type: 'APPROVED' });
      expect((await status(withIt.id).expect(200)).body.status).toEqual({ type: 'REJECTED' });
    });

    it('an applicant\'s credit_decision forces the outcome; any REJECTED wins (contract §4, §9)', async () => {
      const rejected = await accepted([await applicant(10_000_000), await applicant(10_000_000, { credit: 'REJECTED' })], 1_000);
      const approved = await accepted([await applicant(1, { credit: 'APPROVED' })], 10_000_000);
      for (const p of [...rejected.participants, ...approved.participants]) await sign(p.id);
      await t.clock.advance(30);
      await runJobs();
      expect((await status(rejected.id).expect(200)).body.status).toEqual({ type: 'REJECTED' });
      expect((await status(approved.id).expect(200)).body.status).toEqual({ type: 'APPROVED' });
    });

    it('the decision delay is PRE_APPROVAL_DECISION_DELAY_S of sandbox time (contract §6)', async () => {
      const quick = await createTestApp({ env: { PRE_APPROVAL_DECISION_DELAY_S: '5' } });
      try {
        const k = (await newPartner(quick)).api_key;
        const id = await signedPreApproval(quick, k);
        await quick.clock.advance(5);
        await quick.admin.post('/admin/jobs/run').expect(200);
        expect((await quick.http.get(`/mortgage/2.0/pre-approval/${id}/status`).set(auth(k)).expect(200)).body.status).toEqual({ type: 'APPROVED' });
      } finally {
        await quick.close();
      }
    });
  });

  describe('expiry (contract §9)', () => {
    it('30 days after creation, one not yet PROCESSING is EXPIRED, on read and by the job; it can no longer be accepted', async () => {
      const offered = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body.id;
      const awaiting = await accepted([await applicant(), await applicant()]);
      await sign(awaiting.participants[0].id);
      await t.clock.advance(30 * 86400 - 1);
      expect((await status(offered).expect(200)).body.status).toEqual({ type: 'OFFER_GENERATED' });
      await t.clock.advance(1);
      await runJobs();
      expect((await status(awaiting.id).expect(200)).body.status).toEqual({ type: 'EXPIRED' });
      expect((await status(offered).expect(200)).body).toMatchObject({ status: { type: 'EXPIRED' }, expiry_date: '2026-12-24T09:00:00Z' });
      expectProblem(await accept(offered), 409, 'INVALID_STATE');
    });

    it('expires at the very instant its expiry_date states, also when created at a fraction of a second (contract §9)', async () => {
      await t.clock.set('2026-11-24T09:00:00.900Z', true);
      const offered = (await create({ applicants: [await applicant()], loan_amount: 1_000_000 }).expect(201)).body;
      expect(offered.expiry_date).toBe('2026-12-24T09:00:00Z');
      await t.clock.set('2026-12-24T08:59:59.999Z', true);
      expect((await status(offered.id).expect(200)).body.status).toEqual({ type: 'OFFER_GENERATED' });
      await t.clock.set('2026-12-24T09:00:00.000Z', true);
      expect((await status(offered.id).expect(200)).body.status).toEqual({ type: 'EXPIRED' });
      expectProblem(await accept(offered.id), 409, 'INVALID_STATE');
    });

    it('the participants of an EXPIRED pre-approval cannot start a signing: 409 INVALID_STATE on start and start/phone, also before the job has run (contract §2, §9)', async () => {
      const ongoing = await accepted([await applicant(), await applicant()]);
      await sign(ongoing.participants[0].id);
      const awaiting = await accepted([await applicant()]);
      await t.clock.advance(30 * 86400);
      for (const { id } of [ongoing.participants[1], awaiting.participants[0]]) {
        const refused = expectProblem(await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: id }), 409, 'INVALID_STATE');
        expect(refused.reason.message).toContain('the pre-approval is EXPIRED');
        expectProblem(await t.http.post('/signing/1.0/start/phone').set(auth()).send({ participant_id: id, call_initiator: 'RP' }), 409, 'INVALID_STATE');
      }
      expect((await status(ongoing.id).expect(200)).body).toMatchObject({
        status: { type: 'EXPIRED' },
        signing_process: { participants: [{ signed: true }, { signed: false }] },
      });
      expect((await status(awaiting.id).expect(200)).body).toMatchObject({ status: { type: 'EXPIRED' }, signing_process: { participants: [{ signed: false }] } });
    });

    it('a start a second before expiry_date is taken (bank §3.3, contract §9)', async () => {
      const { participants } = await accepted([await applicant()]);
      await t.clock.advance(30 * 86400 - 1);
      await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participants[0].id }).expect(200);
    });

    it('once PROCESSING or decided, a signing start is 409 INVALID_STATE naming the state (bank §3.3, contract §2)', async () => {
      const { participants } = await accepted([await applicant()]);
      await sign(participants[0].id);
      const start = () => t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participants[0].id });
      expect(expectProblem(await start(), 409, 'INVALID_STATE').reason.message).toContain('the pre-approval is PROCESSING');
      await t.clock.advance(30);
      await runJobs();
      expect(expectProblem(await start(), 409, 'INVALID_STATE').reason.message).toContain('the pre-approval is APPROVED');
    });

    it('one that reached PROCESSING does not expire', async () => {
      const { id, participants } = await accepted([await applicant()]);
      await sign(participants[0].id);
      await t.clock.advance(31 * 86400);
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
    });
  });

  describe('a signing takes effect when it completes in the eid app, not at collect (bank §3.2, §3.3; contract §9)', () => {
    /** Starts the participant's signing, opens it in the simulator and approves it there; no collect. The completion instant. */
    const completeInApp = async (participantId: string): Promise<string> => {
      const { autostart_token } = (await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participantId }).expect(200)).body;
      const { operation_id } = (await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200)).body;
      await t.clock.advance(5);
      await t.http.post(`/sandbox/eid/operations/${operation_id}/complete`).expect(204);
      return t.clock.now();
    };
    const collect = (participantId: string) => t.http.post('/signing/1.0/collect').set(auth()).send({ participant_id: participantId }).expect(200);

    it('MANUAL: once the order is COMPLETE the status shows signed with signed_at the completion instant and PROCESSING, without any collect; the decision comes PRE_APPROVAL_DECISION_DELAY_S after it (bank §3.2, §3.3; contract §9)', async () => {
      const { id, participants } = await accepted([await applicant(800_000, { eid: 'MANUAL' })]);
      expect(await completeInApp(participants[0].id)).toBe('2026-11-24T09:00:05.000Z');
      const processing = (await status(id).expect(200)).body;
      expect(processing).toMatchObject({
        status: { type: 'PROCESSING' },
        customer_service_reference: expect.stringMatching(/^PA-[A-Z0-9]{8}$/),
        signing_process: { participants: [{ id: participants[0].id, signed: true, signed_at: '2026-11-24T09:00:05Z' }] },
      });
      await expectApprovedThirtySecondsOn(id, processing.customer_service_reference);
    });

    it('a collect after the completion still answers COMPLETE with the same signed_at and records nothing twice (bank §3.2)', async () => {
      const { id, participants } = await accepted([await applicant(800_000, { eid: 'MANUAL' }), await applicant(800_000, { eid: 'MANUAL' })]);
      await completeInApp(participants[0].id);
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'SIGNING_ONGOING' });
      await t.clock.advance(3);
      expect((await collect(participants[0].id)).body).toEqual({ status: 'COMPLETE', signed_at: '2026-11-24T10:00:05+01:00' });
      const after = (await status(id).expect(200)).body;
      expect(after.status).toEqual({ type: 'SIGNING_ONGOING' });
      expect(after.signing_process.participants.map((p: { signed: boolean; signed_at?: string }) => [p.signed, p.signed_at])).toEqual([
        [true, '2026-11-24T09:00:05Z'],
        [false, undefined],
      ]);
    });

    it('two applicants: PROCESSING at the second completion, the decision due from that instant (bank §3.3, contract §9)', async () => {
      const { id, participants } = await accepted([await applicant(800_000, { eid: 'MANUAL' }), await applicant(800_000, { eid: 'MANUAL' })]);
      await completeInApp(participants[1].id);
      await t.clock.advance(60);
      expect(await completeInApp(participants[0].id)).toBe('2026-11-24T09:01:10.000Z');
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
      await t.clock.advance(29);
      await runJobs();
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
      await t.clock.advance(1);
      await runJobs();
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'APPROVED' });
    });

    it('completed before expiry_date and never collected: not EXPIRED when the expiry job runs after it (contract §9)', async () => {
      const { id, participants } = await accepted([await applicant(800_000, { eid: 'MANUAL' })]);
      await t.clock.advance(30 * 86400 - 60);
      await completeInApp(participants[0].id);
      await t.clock.advance(60);
      await runJobs();
      expect((await status(id).expect(200)).body).toMatchObject({ status: { type: 'APPROVED' }, signing_process: { participants: [{ signed: true, signed_at: '2026-12-24T08:59:05Z' }] } });
    });

    it('a completion recorded late (by a collect after expiry_date, the completion seam having missed it) counts at its instant: PROCESSING, not EXPIRED (contract §9)', async () => {
      const { id, participants } = await accepted([await applicant(800_000, { eid: 'MANUAL' })]);
      await t.clock.advance(30 * 86400 - 60);
      await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participants[0].id }).expect(200);
      // The order completes as the engine would, but no listener hears of it (as when one failed).
      const completedAt = await t.clock.now();
      await t.get(DataSource).query(`UPDATE eid_order SET status = 'COMPLETE', hint_code = NULL, app_opened_at = $2, finished_at = $2, version = version + 1 WHERE personal_number = $1`, [
        participants[0].personal_number,
        completedAt,
      ]);
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'AWAITING_ACCEPTANCE' });
      await t.clock.advance(60);
      expect((await collect(participants[0].id)).body).toEqual({ status: 'COMPLETE', signed_at: '2026-12-24T09:59:00+01:00' });
      expect((await status(id).expect(200)).body).toMatchObject({ status: { type: 'PROCESSING' }, signing_process: { participants: [{ signed: true, signed_at: '2026-12-24T08:59:00Z' }] } });
      await runJobs();
      expect((await status(id).expect(200)).body.status).toEqual({ type: 'APPROVED' });
    });
  });

  describe('GET /mortgage/openapi.yaml (bank §4.5)', () => {
    it.each([['/mortgage/openapi.yaml'], ['/partner/mortgage/openapi.yaml']])('%s is the mortgage and signing part of the OpenAPI document, as YAML, without credentials', async (path) => {
      const res = await t.http.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/yaml/);
      const doc = load(res.text) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
      expect(doc.openapi).toMatch(/^3\./);
      for (const route of ['/mortgage/2.0/pre-approval', '/mortgage/2.0/pre-approval/{id}/acceptance', '/mortgage/2.0/pre-approval/{id}/status', '/signing/1.0/start', '/signing/1.0/collect']) {
        expect(doc.paths).toHaveProperty([route]);
      }
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin') || p.startsWith('/psd2') || p.startsWith('/v2'))).toBe(false);
      expect(doc.components.schemas).toHaveProperty('PreApprovalStatusDto');
    });

    it('holds exactly the operations tagged mortgage or signing in /openapi.json, with those two tags (issue 9, contract §1)', async () => {
      type Paths = Record<string, Record<string, { tags?: string[] }>>;
      const part = load((await t.http.get('/mortgage/openapi.yaml').expect(200)).text) as { tags: Array<{ name: string }>; paths: Paths };
      const whole = (await t.http.get('/openapi.json').expect(200)).body as { paths: Paths };
      const operations = (paths: Paths) =>
        Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ route: `${method} ${path}`, tags: op.tags })));
      const expected = operations(whole.paths).filter((op) => op.tags?.some((tag) => ['mortgage', 'signing'].includes(tag)));
      expect(expected.length).toBeGreaterThan(20);
      expect(operations(part.paths)).toEqual(expected);
      expect(part.tags.map((tag) => tag.name)).toEqual(['signing', 'mortgage']);
      for (const route of ['/api/loan-application/2.0/mortgages', '/partner/api/interest-rates/2.0/effective-interest-rate', '/partner/signing/1.0/start']) {
        expect(part.paths).toHaveProperty([route]);
      }
    });
  });
});

describe('loan applications 2.0 and interest rates (bank §3.3, §9 rules 6–7; contract §9)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => ({ t, key } = await partnerApp()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const auth = () => partner(key);
  const base = '/api/loan-application/2.0/mortgages';
  async function application(applicants = 2, loan = 2_500_000) {
    const people = [];
    for (let i = 0; i < applicants; i++) people.push({ personal_number: await newUser(t), yearly_income: 700_000 });
    const res = await t.http.post(base).set(auth()).send({ applicants: people, loan_amount: loan }).expect(201);
    const state = (await t.http.get(`${base}/status/${res.body.id}`).set(auth()).expect(200)).body;
    return { id: res.body.id as string, created: res.body, participants: state.signing_process.participants as Array<{ id: string; personal_number: string }> };
  }
  const signBankId = (id: string, participant: string) => t.http.put(`${base}/sign-bankid/${id}/participant/${participant}`).set(auth());
  const document = (over: object = {}) => ({ document_type: 'PAYSLIP', file_name: 'lonespec.pdf', content_type: 'application/pdf', content: Buffer.from('%PDF-1.4 lönespecifikation').toString('base64'), ...over });

  it('POST answers 201 { id, status }; the status lists the applicants as participants, main applicant first (contract §9)', async () => {
    const { id, created, participants } = await application();
    expect(created).toEqual({ id: expect.stringMatching(UUID), status: { type: 'AWAITING_SIGNATURE' } });
    expect(participants).toHaveLength(2);
    expect((await t.http.get(`${base}/status/${id}`).set(auth()).expect(200)).body).toEqual({
      id,
      status: { type: 'AWAITING_SIGNATURE' },
      signing_process: { participants: participants.map((p) => ({ id: p.id, personal_number: p.personal_number, signed: false })) },
    });
  });

  it('POST refuses an applicant that is no JSON object (an array, a number) with 400 naming applicants.N, never a 500 (contract §2)', async () => {
    for (const applicants of [[[]], [[{ personal_number: await newUser(t), yearly_income: 700_000 }]], [1]]) {
      expectValidationFailed(await t.http.post(base).set(auth()).send({ applicants, loan_amount: 2_500_000 }), 'applicants.0');
    }
  });

  it('only the main applicant must sign: the co-applicant alone does not submit it; the main applicant does (bank §3.3)', async () => {
    const { id, participants } = await application();
    await signBankId(id, participants[1].id).expect(204);
    expect((await t.http.get(`${base}/status/${id}`).set(auth()).expect(200)).body.status).toEqual({ type: 'AWAITING_SIGNATURE' });
    await signBankId(id, participants[0].id).expect(204);
    const submitted = (await t.http.get(`${base}/status/${id}`).set(auth()).expect(200)).body;
    expect(submitted).toMatchObject({ status: { type: 'PROCESSING' }, customer_service_reference: expect.stringMatching(/^LA-[A-Z0-9]{8}$/) });
    expect(submitted.signing_process.participants.map((p: { signed: boolean; signed_at?: string }) => [p.signed, p.signed_at])).toEqual([
      [true, '2026-11-24T09:00:00Z'],
      [true, '2026-11-24T09:00:00Z'],
    ]);
  });

  it('its participants sign through the signing interface too, and the job decides', async () => {
    const { id, participants } = await application(1, 3_850_000);
    await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participants[0].id }).expect(200);
    await t.http.post('/signing/1.0/collect').set(auth()).send({ participant_id: participants[0].id }).expect(200);
    await t.clock.advance(30);
    await t.admin.post('/admin/jobs/run').expect(200);
    expect((await t.http.get(`${base}/status/${id}`).set(auth()).expect(200)).body.status).toEqual({ type: 'APPROVED' });
    expectProblem(await t.http.delete(`${base}/${id}`).set(auth()), 409, 'INVALID_STATE');
  });

  it('MANUAL: the main applicant\'s signing completed in the eid app submits it without any collect, and the job decides at exactly 30 s after the completion, not a millisecond before (bank §3.2, §3.3; contract §6, §9)', async () => {
    const main = await newUser(t, { eid: 'MANUAL' });
    const created = (await t.http.post(base).set(auth()).send({ applicants: [{ personal_number: main, yearly_income: 700_000 }], loan_amount: 3_850_000 }).expect(201)).body;
    const [participant] = (await t.http.get(`${base}/status/${created.id}`).set(auth()).expect(200)).body.signing_process.participants;
    const { autostart_token } = (await t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participant.id }).expect(200)).body;
    const { operation_id } = (await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200)).body;
    await t.clock.advance(5);
    await t.http.post(`/sandbox/eid/operations/${operation_id}/complete`).expect(204);
    const submitted = (await t.http.get(`${base}/status/${created.id}`).set(auth()).expect(200)).body;
    expect(submitted).toMatchObject({ status: { type: 'PROCESSING' }, signing_process: { participants: [{ id: participant.id, signed: true, signed_at: '2026-11-24T09:00:05Z' }] } });
    await t.clock.advance(29.999);
    await t.admin.post('/admin/jobs/run').expect(200);
    expect((await t.http.get(`${base}/status/${created.id}`).set(auth()).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
    await t.clock.advance(0.001);
    await t.admin.post('/admin/jobs/run').expect(200);
    expect((await t.http.get(`${base}/status/${created.id}`).set(auth()).expect(200)).body.status).toEqual({ type: 'APPROVED' });
  });

  it('DELETE withdraws it (204), after which it is gone (404)', async () => {
    const { id } = await application(1);
    await t.http.delete(`${base}/${id}`).set(auth()).expect(204);
    expectProblem(await t.http.get(`${base}/status/${id}`).set(auth()), 404, 'NOT_FOUND');
    expectProblem(await t.http.delete(`${base}/${id}`).set(auth()), 404, 'NOT_FOUND');
  });

  const startSigning = (participant: string) => t.http.post('/signing/1.0/start').set(auth()).send({ participant_id: participant });
  const startPhoneSigning = (participant: string) => t.http.post('/signing/1.0/start/phone').set(auth()).send({ participant_id: participant, call_initiator: 'RP' });

  it('the participants of a withdrawn application are gone: signing start and start/phone are 404 (contract §2)', async () => {
    const { id, participants } = await application(2);
    await t.http.delete(`${base}/${id}`).set(auth()).expect(204);
    for (const participant of participants) {
      expectProblem(await startSigning(participant.id), 404, 'NOT_FOUND');
      expectProblem(await startPhoneSigning(participant.id), 404, 'NOT_FOUND');
    }
  });

  it('once submitted or decided, signing start and start/phone are 409 INVALID_STATE, as sign-bankid is (bank §3.3, contract §2)', async () => {
    const { id, participants } = await application(2);
    const coApplicant = participants[1].id;
    await signBankId(id, participants[0].id).expect(204);
    for (const refused of [await startSigning(coApplicant), await startPhoneSigning(coApplicant)]) {
      expect(expectProblem(refused, 409, 'INVALID_STATE').reason.message).toContain('the loan application is PROCESSING');
    }
    await t.clock.advance(30);
    await t.admin.post('/admin/jobs/run').expect(200);
    expect((await t.http.get(`${base}/status/${id}`).set(auth()).expect(200)).body.status).toEqual({ type: 'APPROVED' });
    expect(expectProblem(await startSigning(coApplicant), 409, 'INVALID_STATE').reason.message).toContain('the loan application is APPROVED');
    expectProblem(await signBankId(id, coApplicant), 409, 'INVALID_STATE');
  });

  it('supplementary documentation: PUT creates (201) then replaces (200), answering a receipt with size and SHA-256', async () => {
    const { id } = await application(1);
    const supplement = randomUUID();
    const content = Buffer.from('%PDF-1.4 anställningsbevis');
    const first = await t.http.put(`${base}/${id}/supplementary-documentation/${supplement}`).set(auth()).send(document({ document_type: 'EMPLOYMENT_CERTIFICATE', content: content.toString('base64') })).expect(201);
    expect(first.body).toEqual({
      supplement_id: supplement,
      document_type: 'EMPLOYMENT_CERTIFICATE',
      file_name: 'lonespec.pdf',
      content_type: 'application/pdf',
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      received_at: '2026-11-24T09:00:00Z',
    });
    await t.http.put(`${base}/${id}/supplementary-documentation/${supplement}`).set(auth()).send(document()).expect(200);
  });

  it('refuses a bad document with 400 naming the field', async () => {
    const { id } = await application(1);
    const path = `${base}/${id}/supplementary-documentation/${randomUUID()}`;
    expectValidationFailed(await t.http.put(path).set(auth()).send(document({ content: 'not base64!' })), 'content');
    expectValidationFailed(await t.http.put(path).set(auth()).send(document({ content_type: 'text/html' })), 'content_type');
    expectValidationFailed(await t.http.put(path).set(auth()).send(document({ file_name: '../etc/passwd' })), 'file_name');
  });

  it('refuses a document for a withdrawn application with 404', async () => {
    const { id } = await application(1);
    const path = `${base}/${id}/supplementary-documentation/${randomUUID()}`;
    await t.http.delete(`${base}/${id}`).set(auth()).expect(204);
    expectProblem(await t.http.put(path).set(auth()).send(document()), 404, 'NOT_FOUND');
  });

  it('another partner\'s application is 404 everywhere (contract §2)', async () => {
    const { id, participants } = await application(1);
    const other = (await newPartner(t)).api_key;
    expectProblem(await t.http.get(`${base}/status/${id}`).set(partner(other)), 404, 'NOT_FOUND');
    expectProblem(await t.http.put(`${base}/sign-bankid/${id}/participant/${participants[0].id}`).set(partner(other)), 404, 'NOT_FOUND');
    expectProblem(await t.http.delete(`${base}/${id}`).set(partner(other)), 404, 'NOT_FOUND');
  });

  it('a participant of another application is 404 on sign-bankid', async () => {
    const a = await application(1);
    const b = await application(1);
    expectProblem(await signBankId(a.id, b.participants[0].id), 404, 'NOT_FOUND');
  });

  describe('GET /api/interest-rates/2.0/effective-interest-rate (bank §9 rule 7)', () => {
    const quote = (query: Record<string, string | number>) => t.http.get('/api/interest-rates/2.0/effective-interest-rate').set(auth()).query(query);

    it('answers the effective rate by the Swedish consumer-credit convention: worked examples', async () => {
      expect((await quote({ nominal_interest_rate: 12, loan_amount: 100000, term_months: 60 }).expect(200)).body).toMatchObject({ effective_interest_rate: 12.68 });
      expect((await quote({ nominal_interest_rate: 3.45, loan_amount: 2000000, term_months: 600 }).expect(200)).body).toEqual({
        nominal_interest_rate: 3.45,
        effective_interest_rate: 3.51,
        monthly_payment: 7000.37,
        total_amount_payable: 4200220.58,
      });
      expect((await quote({ nominal_interest_rate: 6, loan_amount: 100000, term_months: 60, setup_fee: 500, monthly_fee: 30 }).expect(200)).body).toMatchObject({
        effective_interest_rate: 7.07,
        monthly_payment: 1963.28,
      });
    });

    /** The query as written: superagent's query() would encode what a loose client sends differently. */
    const quoteRaw = (query: string) => t.http.get(`/api/interest-rates/2.0/effective-interest-rate?${query}`).set(auth());
    const valid = { nominal_interest_rate: '3.45', loan_amount: '100000', term_months: '60' };
    const written = (over: Record<string, string>) =>
      Object.entries({ ...valid, ...over })
        .map(([name, value]) => `${name}=${value}`)
        .join('&');

    it.each([
      ['nominal_interest_rate', ''],
      ['nominal_interest_rate', '%20'],
      ['nominal_interest_rate', '0x10'],
      ['nominal_interest_rate', '%203.45'],
      ['nominal_interest_rate', 'Infinity'],
      ['loan_amount', ''],
      ['loan_amount', '0x186A0'],
      ['loan_amount', '100000%20'],
      ['loan_amount', '1_000'],
      ['term_months', '0x0C'],
      ['term_months', '%2B60'],
      ['term_months', '060'],
      ['setup_fee', ''],
      ['setup_fee', '%20'],
      ['setup_fee', '0x10'],
      ['monthly_fee', ''],
      ['monthly_fee', '0b1'],
    ])('refuses %s=%s, not a number as JSON writes one, with 400 naming it (contract §2)', async (name, value) => {
      expectValidationFailed(await quoteRaw(written({ [name]: value })), name);
    });

    it('reads numbers in any JSON form, exponents included (contract §2)', async () => {
      const plain = (await quoteRaw(written({ setup_fee: '500' })).expect(200)).body;
      expect((await quoteRaw(written({ loan_amount: '1e5', term_months: '6E1', nominal_interest_rate: '345e-2', setup_fee: '5e2' })).expect(200)).body).toEqual(plain);
    });

    it('refuses a setup_fee of the whole loan_amount or more with 400 naming setup_fee; just below it the rate is not capped (rule of this sandbox)', async () => {
      expectValidationFailed(await quote({ nominal_interest_rate: 6, loan_amount: 100000, term_months: 60, setup_fee: 100000 }), 'setup_fee');
      expectValidationFailed(await quote({ nominal_interest_rate: 6, loan_amount: 100000, term_months: 60, setup_fee: 250000 }), 'setup_fee');
      const steep = (await quote({ nominal_interest_rate: 6, loan_amount: 100000, term_months: 60, setup_fee: 99000 }).expect(200)).body;
      expect(steep.effective_interest_rate).toBeGreaterThan(1000);
      expect(Number.isFinite(steep.effective_interest_rate)).toBe(true);
    });

    it('refuses a monthly_fee above 1 000 000 000 with 400 naming it', async () => {
      expectValidationFailed(await quote({ nominal_interest_rate: 6, loan_amount: 100000, term_months: 60, monthly_fee: 1e300 }), 'monthly_fee');
    });

    it('refuses a missing or malformed parameter with 400 naming it', async () => {
      expectValidationFailed(await quote({ loan_amount: 100000, term_months: 60 }), 'nominal_interest_rate');
      expectValidationFailed(await quote({ nominal_interest_rate: 3, loan_amount: 'much', term_months: 60 }), 'loan_amount');
      expectValidationFailed(await quote({ nominal_interest_rate: 3, loan_amount: 100000, term_months: 0 }), 'term_months');
    });
  });
});

describeOnServer('pre-approval decisions with two instances (contract §6)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances({ frozenAt: BASE_TIME })));
  afterAll(() => closeApps(a, b));

  it('two job runs at once decide each pre-approval once', async () => {
    const key = (await newPartner(a)).api_key;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await signedPreApproval(a, key));
    await a.clock.advance(30);
    await Promise.all([a.admin.post('/admin/jobs/run').expect(200), b.admin.post('/admin/jobs/run').expect(200)]);
    // a.logs holds the lines of every app in this file (see test-app.ts): count each decision once.
    const decisions = a.logs.filter((line) => ids.some((id) => line.msg === `pre-approval ${id} APPROVED`));
    expect(decisions).toHaveLength(ids.length);
  });
});
