import { DataSource } from 'typeorm';
import { newPartner } from './support/fixtures';
import { expectProblem } from './support/problems';
import { bearer, expectOAuthError, newPsu, newUser } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

describe('planned downtime (bank §8; contract §1, §7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A bank route without credentials: 401 when up, 503 when down. */
  const bankCall = () => t.http.post('/psd2/auth/3.0/authenticate').send({});

  it('inside a window every bank route answers 503 PLANNED_DOWNTIME with Retry-After to the window\'s end, before any other check', async () => {
    await t.clock.freeze('2026-11-22T07:00:00+01:00');
    const res = await bankCall();
    expectProblem(res, 503, 'PLANNED_DOWNTIME');
    expect(res.headers['retry-after']).toBe(String(45 * 60));
    expectProblem(await t.http.post('/psd2/auth/3.0/status').set('Content-Type', 'application/json').send('{not json'), 503, 'PLANNED_DOWNTIME');
    expectProblem(await t.http.post('/signing/1.0/start').set('Content-Type', 'application/json').send(JSON.stringify({ x: 'y'.repeat(1_100_000) })), 503, 'PLANNED_DOWNTIME');
    expectProblem(await t.http.get('/v2/accounts'), 503, 'PLANNED_DOWNTIME');
    expectProblem(await t.http.get('/mortgage/openapi.yaml'), 503, 'PLANNED_DOWNTIME');
    // The token endpoints answer in their own shape (contract §2, §7).
    const token = await t.http.post('/psd2/auth/1.0/token').type('form').send({ grant_type: 'client_credentials' });
    expectOAuthError(token, 503, 'temporarily_unavailable');
    expect(token.headers['retry-after']).toBe(String(45 * 60));
  });

  it('keeps /health, /openapi.json, /docs, /admin/*, /sandbox/* and the console up (contract §7, §14)', async () => {
    await t.clock.freeze('2026-11-22T07:00:00+01:00');
    await t.http.get('/health').expect(200);
    await t.http.get('/').set('Accept', 'text/html').expect(200);
    await t.http.get('/').expect(200);
    await t.http.get('/openapi.json').expect(200);
    await t.http.get('/docs').redirects(3).expect(200);
    await t.admin.get('/admin/clock').expect(200);
    await t.http.get('/sandbox/maintenance-windows').expect(200);
    await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI' }).expect(200);
  });

  it('starts at exactly the window\'s start and ends at exactly its end: down a millisecond before 07:45, up at 07:45:00 (2026: 04:00–07:45; contract §6, §7)', async () => {
    await t.clock.freeze('2026-11-22T03:59:59.999+01:00');
    expect((await bankCall()).status).toBe(401);
    await t.clock.freeze('2026-11-22T04:00:00+01:00');
    expect((await bankCall()).headers['retry-after']).toBe(String(3 * 3600 + 45 * 60));
    await t.clock.freeze('2026-11-22T07:44:59.999+01:00');
    const last = await bankCall();
    expect(last.status).toBe(503);
    expect(last.headers['retry-after']).toBe('1');
    expect((await t.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toEqual({ start: '2026-11-22T04:00:00+01:00', end: '2026-11-22T07:45:00+01:00' });
    await t.clock.freeze('2026-11-22T07:45:00+01:00');
    expect((await bankCall()).status).toBe(401);
    expect((await t.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toBeNull();
  });

  it('2025 windows start at 05:00, 2026 windows at 04:00 (bank §8)', async () => {
    await t.clock.freeze('2025-11-23T04:30:00+01:00');
    expect((await bankCall()).status).toBe(401);
    await t.clock.freeze('2025-11-23T05:00:00+01:00');
    expect((await bankCall()).status).toBe(503);
    await t.clock.freeze('2026-11-15T04:00:00+01:00');
    expect((await bankCall()).status).toBe(503);
  });

  it('follows the wall clock on daylight-saving days: 2026-03-29 (to summer time) and 2026-10-25 (to winter time)', async () => {
    await t.clock.freeze('2026-03-29T01:59:59Z'); // 03:59:59 +02:00
    expect((await bankCall()).status).toBe(401);
    await t.clock.freeze('2026-03-29T02:00:00Z'); // 04:00 +02:00
    expect((await bankCall()).status).toBe(503);
    await t.clock.freeze('2026-03-29T05:45:00Z'); // 07:45 +02:00
    expect((await bankCall()).status).toBe(401);
    await t.clock.freeze('2026-10-25T02:59:59Z'); // 03:59:59 +01:00
    expect((await bankCall()).status).toBe(401);
    await t.clock.freeze('2026-10-25T03:00:00Z'); // 04:00 +01:00
    expect((await bankCall()).status).toBe(503);
    await t.clock.freeze('2026-10-25T06:44:59Z');
    expect((await bankCall()).status).toBe(503);
  });

  it('GET /sandbox/maintenance-windows answers { active, windows } with Stockholm offsets (contract §7)', async () => {
    await t.clock.freeze('2026-11-22T05:00:00+01:00');
    const during = (await t.http.get('/sandbox/maintenance-windows').expect(200)).body;
    expect(during.active).toEqual({ start: '2026-11-22T04:00:00+01:00', end: '2026-11-22T07:45:00+01:00' });
    expect(during.windows).toHaveLength(27);
    expect(during.windows[0]).toEqual({ start: '2025-03-23T05:00:00+01:00', end: '2025-03-23T07:45:00+01:00' });
    expect(during.windows).toContainEqual({ start: '2026-06-14T04:00:00+02:00', end: '2026-06-14T07:45:00+02:00' });
    await t.clock.freeze(BASE_TIME);
    expect((await t.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toBeNull();
  });

  it('records each window\'s start and end once, as the sandbox clock passes them (the bookkeeping job)', async () => {
    const events = () => t.get(DataSource).query(`SELECT event, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at FROM maintenance_window_event ORDER BY occurred_at, event`);
    await t.clock.freeze('2026-11-15T03:00:00+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    expect(await events()).toEqual([]);
    await t.clock.freeze('2026-11-15T05:00:00+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    await t.admin.post('/admin/jobs/run').expect(200);
    expect(await events()).toEqual([{ event: 'started', at: '2026-11-15T03:00' }]);
    await t.clock.freeze('2026-11-15T08:00:00+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    expect(await events()).toEqual([
      { event: 'started', at: '2026-11-15T03:00' },
      { event: 'ended', at: '2026-11-15T06:45' },
    ]);
    expect(t.logs.filter((line) => line.msg === 'planned downtime started' || line.msg === 'planned downtime ended')).toHaveLength(2);
  });

  it('the bookkeeping records a window\'s end at exactly 07:45:00, not a millisecond before (contract §6, §7)', async () => {
    const ended = async () =>
      (await t.get(DataSource).query(`SELECT count(*)::int AS n FROM maintenance_window_event WHERE window_start = '2026-10-25T03:00:00Z' AND event = 'ended'`))[0].n;
    await t.clock.freeze('2026-10-25T05:00:00+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    await t.clock.freeze('2026-10-25T07:44:59.999+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    expect(await ended()).toBe(0);
    await t.clock.freeze('2026-10-25T07:45:00+01:00');
    await t.admin.post('/admin/jobs/run').expect(200);
    expect(await ended()).toBe(1);
  });

  it('is off with DOWNTIME_CALENDAR=off', async () => {
    const off = await createTestApp({ env: { DOWNTIME_CALENDAR: 'off' } });
    try {
      await off.clock.freeze('2026-11-22T05:00:00+01:00');
      expect((await off.http.post('/psd2/auth/3.0/authenticate').send({})).status).toBe(401);
      expect((await off.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toBeNull();
    } finally {
      await off.close();
    }
  });
});

describe('retired API versions (bank §7.4 rule 3, §9; contract §12)', () => {
  let t: TestApp;
  let partnerKey: string;
  beforeAll(async () => {
    t = await createTestApp();
    partnerKey = (await newPartner(t)).api_key;
  });
  afterAll(() => t.close());

  const partner = { Authorization: () => ({ Authorization: `Bearer ${partnerKey}` }) };
  const expectDeprecated = (res: { headers: Record<string, string> }, deprecation: number, sunset: string | null, successor: string) => {
    expect(res.headers.deprecation).toBe(`@${deprecation}`);
    if (sunset) expect(res.headers.sunset).toBe(sunset);
    else expect(res.headers).not.toHaveProperty('sunset');
    expect(res.headers.link).toBe(`<${successor}>; rel="successor-version"`);
  };

  it('GET /psd2/auth/1.0/authenticate and /2.0/authorize: 501 NOT_SIMULATED until 2024-04-30 end of day (a millisecond before midnight), 410 at exactly midnight (contract §6, §12)', async () => {
    await t.clock.freeze('2024-04-30T23:59:59.999+02:00');
    // Each redirect flow is succeeded by the 3.0 call of the same flow (bank §9 rule 2).
    for (const [path, successor] of [['/psd2/auth/1.0/authenticate', '/psd2/auth/3.0/authenticate'], ['/psd2/auth/2.0/authorize', '/psd2/auth/3.0/authorize']]) {
      const res = await t.http.get(path);
      expectProblem(res, 501, 'NOT_SIMULATED');
      expect(res.body.reason.message).toContain(`POST ${successor}`);
      expectDeprecated(res, 1714514400, 'Tue, 30 Apr 2024 22:00:00 GMT', successor);
    }
    await t.clock.freeze('2024-05-01T00:00:00+02:00');
    const gone = await t.http.get('/psd2/auth/1.0/authenticate');
    expectProblem(gone, 410, 'VERSION_WITHDRAWN');
    expect(gone.body.reason.message).toContain('/psd2/auth/3.0');
  });

  it('/psd2/savings/2.0/…: an alias of 3.0 with Deprecation, Sunset and Link until 2024-04-30 end of day, 410 from exactly its Sunset instant (before credentials; contract §6, §12)', async () => {
    await t.clock.freeze('2024-04-30T12:00:00+02:00');
    const psu = await newPsu(t);
    const token = await psu.token();
    const body = { amount: 10, currency: 'SEK', transfer_date: '2024-04-30', recipient_account_number: '5050-1055' };
    const res = await t.http.post(`/psd2/savings/2.0/accounts/${psu.accounts[0]}/transfers`).set(bearer(psu.tpp, token)).send(body).expect(201);
    expect(res.body.status).toBe('AWAITING_SIGNATURE');
    expectDeprecated(res, 1714514400, 'Tue, 30 Apr 2024 22:00:00 GMT', `/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers`);
    const status = await t.http.get(`/psd2/savings/2.0/accounts/${psu.accounts[0]}/transfers/${res.body.reference_id}/status`).set(bearer(psu.tpp, token)).expect(200);
    expect(status.body.reference_id).toBe(res.body.reference_id);
    await t.clock.freeze('2024-04-30T23:59:59.999+02:00');
    await t.http.get(`/psd2/savings/2.0/accounts/${psu.accounts[0]}/transfers/${res.body.reference_id}/status`).set(bearer(psu.tpp, await psu.token())).expect(200);
    await t.clock.freeze('2024-05-01T00:00:00+02:00');
    expectProblem(await t.http.post(`/psd2/savings/2.0/accounts/${psu.accounts[0]}/transfers`).send(body), 410, 'VERSION_WITHDRAWN');
  });

  it('/api/signing/1.0/…: an alias of /signing/1.0 until a millisecond before 2024-03-28 00:00, 410 at exactly its start (contract §6, §12)', async () => {
    await t.clock.freeze('2024-03-27T23:59:59.999+01:00');
    const res = await t.http.post('/api/signing/1.0/start').set(partner.Authorization()).send({ participant_id: '0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11' });
    expectProblem(res, 404, 'NOT_FOUND');
    expectDeprecated(res, 1711580400, 'Wed, 27 Mar 2024 23:00:00 GMT', '/signing/1.0/start');
    await t.clock.freeze('2024-03-28T00:00:00+01:00');
    expectProblem(await t.http.post('/api/signing/1.0/start').send({}), 410, 'VERSION_WITHDRAWN');
  });

  it('/applications/… pre-approval paths: an alias of /mortgage/2.0 until a millisecond before 2024-04-12 00:00, 410 at exactly its start (contract §6, §12)', async () => {
    await t.clock.freeze('2024-04-11T23:59:59.999+02:00');
    const applicant = await newUser(t);
    const res = await t.http.post('/applications/pre-approval').set(partner.Authorization()).send({ applicants: [{ personal_number: applicant, yearly_income: 1 }], loan_amount: 1 }).expect(201);
    expectDeprecated(res, 1712872800, 'Thu, 11 Apr 2024 22:00:00 GMT', '/mortgage/2.0/pre-approval');
    await t.http.get(`/applications/pre-approval/${res.body.id}/status`).set(partner.Authorization()).expect(200);
    await t.clock.freeze('2024-04-12T00:00:00+02:00');
    expectProblem(await t.http.get(`/applications/pre-approval/${res.body.id}/status`), 410, 'VERSION_WITHDRAWN');
  });

  it('/api/loan-application/1.0/mortgages/…: an alias of 2.0 (applicant → participant) until 2024-04-30 end of day, 410 from exactly its end (contract §6, §12)', async () => {
    await t.clock.freeze('2024-04-20T12:00:00+02:00');
    const applicant = await newUser(t);
    const created = await t.http.post('/api/loan-application/1.0/mortgages').set(partner.Authorization()).send({ applicants: [{ personal_number: applicant, yearly_income: 1 }], loan_amount: 1 }).expect(201);
    const status = await t.http.get(`/api/loan-application/2.0/mortgages/status/${created.body.id}`).set(partner.Authorization()).expect(200);
    const participant = status.body.signing_process.participants[0].id;
    const signed = await t.http.put(`/api/loan-application/1.0/mortgages/sign-bankid/${created.body.id}/applicant/${participant}`).set(partner.Authorization()).expect(204);
    expectDeprecated(signed, 1714514400, 'Tue, 30 Apr 2024 22:00:00 GMT', `/api/loan-application/2.0/mortgages/sign-bankid/${created.body.id}/participant/${participant}`);
    await t.clock.freeze('2024-04-30T23:59:59.999+02:00');
    await t.http.get(`/api/loan-application/1.0/mortgages/status/${created.body.id}`).set(partner.Authorization()).expect(200);
    await t.clock.freeze('2024-05-01T00:00:00+02:00');
    expectProblem(await t.http.get(`/api/loan-application/1.0/mortgages/status/${created.body.id}`), 410, 'VERSION_WITHDRAWN');
  });

  it('/api/loan-application/1.0/mortgages/preapproval…: usable for an undefined time, with Deprecation only (no Sunset)', async () => {
    await t.clock.freeze(BASE_TIME);
    const applicant = await newUser(t);
    const res = await t.http.post('/api/loan-application/1.0/mortgages/preapproval').set(partner.Authorization()).send({ applicants: [{ personal_number: applicant, yearly_income: 1 }], loan_amount: 1 }).expect(201);
    expectDeprecated(res, 1712872800, null, '/mortgage/2.0/pre-approval');
  });

  it('planned downtime comes before a retired path (contract §1)', async () => {
    await t.clock.freeze('2026-11-22T05:00:00+01:00');
    expectProblem(await t.http.get('/psd2/auth/1.0/authenticate'), 503, 'PLANNED_DOWNTIME');
  });
});

describeOnServer('downtime bookkeeping with two instances (contract §6, §7)', () => {
  it('records a window\'s start once when both instances run the job at once', async () => {
    const [a, b] = await twoInstances();
    try {
      await a.clock.freeze('2026-11-15T03:00:00+01:00');
      await a.admin.post('/admin/jobs/run').expect(200);
      await a.clock.freeze('2026-11-15T05:00:00+01:00');
      await Promise.all([a.admin.post('/admin/jobs/run').expect(200), b.admin.post('/admin/jobs/run').expect(200)]);
      const rows = await a.get(DataSource).query(`SELECT count(*)::int AS n FROM maintenance_window_event WHERE event = 'started'`);
      expect(rows[0].n).toBe(1);
    } finally {
      await closeApps(a, b);
    }
  });
});
