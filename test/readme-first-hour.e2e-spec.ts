import { outputLines, readmeBlock, requireCurlAndJq, runBash } from './support/readme-blocks';
import { bearer, Psd2Client, certificate } from './support/psd2';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';

/**
 * README "Your first hour as a TPP" (issue 9): the one ```sh block between the first-hour markers is
 * run as written, with bash, curl and jq, against a sandbox listening on a real port.
 */
describe('README: your first hour as a TPP (issue 9)', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.listen();
  });
  afterAll(() => t.close());

  it("the README's first-hour walkthrough runs as written against the sandbox, twice in a row, and ends in the same state: the fixture resets the user and its account (issue 9; contract §8)", async () => {
    requireCurlAndJq();
    const script = readmeBlock('first-hour');
    const psu = /^PSU=(\d{12})\b/m.exec(script)?.[1];
    expect(psu).toBeDefined();
    // The transfer is read as the same TPP (the certificate's organization id) sees it, with a new token.
    const organizationId = /organization_id=([A-Z0-9-]+)/.exec(script)?.[1];
    expect(organizationId).toBeDefined();
    const tpp = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId));
    const account = { account_number: expect.stringMatching(/^\d{11}$/), name: 'Lönekonto', currency: 'SEK', balance: 25000, available_balance: 25000 };

    const ordered: string[] = [];
    for (const round of [1, 2]) {
      // Each round starts on the walkthrough's sandbox day, its clock running (the app was pinned there
      // at start; the first round ends on real time, which may be in a downtime window of bank §8).
      if (round > 1) await t.clock.set(BASE_TIME);
      const run = await runBash(script, { SANDBOX: baseUrl, ADMIN_KEY });
      // On a failure the received value shows how far the walkthrough came (stdout) and why (stderr).
      expect({ round, ...run }).toEqual({ round, code: 0, stderr: '', stdout: expect.any(String) });

      const lines = outputLines(run.stdout);
      // The same answers both times: seeding again gives the user its fixture's account, balance and all.
      expect(lines).toEqual([
        [account], // 1. the seeded user's account
        expect.stringMatching(/^eid:\/\/autostarttoken=[0-9a-f-]{36}&redirect=null$/), // 3. the launch URI
        'eid_auth_status: COMPLETE', // 4. AUTO_COMPLETE: the first status call
        { token_type: 'bearer', expires_in: 300, scope: 'AIS PIS', refresh_token_expires_in: 15552000 }, // 5. authorize tokens
        { accounts: [account] }, // 6. AIS
        { reference_id: expect.any(String), status: 'AWAITING_SIGNATURE' }, // 7. PIS
        'signing status: COMPLETE', // 8. the first collect
        { reference_id: expect.any(String), status: 'SIGNED' }, // 9. the transfer's status
        { now: expect.any(String), frozen: false }, // 10. the clock moved on
        {
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          instance: '/v2/accounts',
          reason: { code: 'UNAUTHORIZED', message: expect.stringContaining('expired') },
        },
        'HTTP 401',
        { expires_in: 300, scope: 'AIS' }, // 11. refresh
        { now: expect.any(String), frozen: false }, // 12. real time again
      ]);
      const [seeded] = lines[0] as Array<{ account_number: string }>;
      const transfer = lines[5] as { reference_id: string };
      ordered.push(transfer.reference_id);
      expect(lines[7]).toEqual({ reference_id: transfer.reference_id, status: 'SIGNED' });
      // Past the 5-minute token, from the clock pinned at BASE_TIME when the round began.
      const moved = (Date.parse((lines[8] as { now: string }).now) - Date.parse(BASE_TIME)) / 1000;
      expect(moved).toBeGreaterThanOrEqual(301);
      expect(moved).toBeLessThan(301 + 90);

      // The final state, through the API: the clock is back on real time ...
      const clock = await t.admin.get('/admin/clock').expect(200);
      expect(clock.body.frozen).toBe(false);
      expect(Math.abs(Date.parse(clock.body.now) - Date.now())).toBeLessThan(5_000);

      // The rest is read on the sandbox day of the walkthrough, not on the day the suite runs (real
      // time may be in a downtime window of bank §8, or past the transfer's date).
      await t.clock.set(BASE_TIME);

      // ... the user is as seeded, with the transfer not yet executed ...
      const user = await t.admin.get(`/admin/users/${psu}`).expect(200);
      expect(user.body).toMatchObject({ eid_behaviour: 'AUTO_COMPLETE', kyc_completed: true, accounts: [{ ...account, account_number: seeded.account_number }] });

      // ... and this round's transfer is the only one, SIGNED, dated the day after the sandbox day it
      // was ordered on (the first round's went with the user's account when the fixture was loaded again).
      const token = (await tpp.tokens({ user: psu })).access_token;
      const transfers = await t.http.get(`/v2/accounts/${seeded.account_number}/transfers`).set(bearer(tpp, token)).expect(200);
      expect(transfers.body.transfers).toEqual([
        expect.objectContaining({
          reference_id: transfer.reference_id,
          status: 'SIGNED',
          amount: 100.5,
          currency: 'SEK',
          transfer_date: '2026-11-25',
          recipient_account_number: '5050-1055',
          recipient_name: 'Anna Svensson',
        }),
      ]);
      await t.http
        .get(`/psd2/savings/3.0/accounts/${seeded.account_number}/transfers/${transfer.reference_id}/status`)
        .set(bearer(tpp, token))
        .expect(200, { reference_id: transfer.reference_id, status: 'SIGNED' });
    }
    expect(ordered[1]).not.toBe(ordered[0]);

    // On the transfer's date the one transfer left executes: the balance is what one run leaves, 25 000 − 100.5.
    await t.clock.set('2026-11-25T00:00:00+01:00', true);
    await t.admin.post('/admin/jobs/run').expect(200);
    const token = (await tpp.tokens({ user: psu })).access_token;
    const { accounts } = (await t.http.get('/v2/accounts').set(bearer(tpp, token)).expect(200)).body;
    expect(accounts).toEqual([expect.objectContaining({ balance: 24899.5, available_balance: 24899.5 })]);
    const details = await t.http.get(`/v2/accounts/${accounts[0].account_number}`).set(bearer(tpp, token)).expect(200);
    expect(details.body.transactions).toEqual([expect.objectContaining({ reference_id: ordered[1], amount: -100.5 })]);
  }, 240_000);
});
