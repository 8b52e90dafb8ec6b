import { outputLines, readmeBlock, requireCurlAndJq, runBash } from './support/readme-blocks';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';

/**
 * README "One deployment, many sandboxes" (issue 15, contract §13): the CI job between the
 * ci-sandbox markers is run as written, with bash, curl and jq, against a service listening on a
 * real port, with the operator key only.
 */
describe('README: one deployment, many sandboxes (issue 15, contract §13)', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.listen();
  });
  afterAll(() => t.close());

  it("the README's CI job creates its own sandbox, runs in it on its own clock, and deletes it, as written (contract §13 Lifecycle, Keys, Time)", async () => {
    requireCurlAndJq();
    const script = readmeBlock('ci-sandbox');
    const psu = /^PSU=(\d{12})\b/m.exec(script)?.[1];
    expect(psu).toBeDefined();
    // The default sandbox's clock where this test puts it: the job must leave it there.
    const defaultClock = await t.clock.freeze(BASE_TIME);
    const ids = async () => ((await t.admin.get('/sandboxes').expect(200)).body.sandboxes as Array<{ sandbox_id: string }>).map((s) => s.sandbox_id);
    const before = await ids();

    const run = await runBash(script, { SANDBOX: baseUrl, ADMIN_KEY });
    // On a failure the received value shows how far the job came (stdout) and why (stderr).
    expect(run).toEqual({ code: 0, stderr: '', stdout: expect.any(String) });

    const lines = outputLines(run.stdout);
    expect(lines).toEqual([
      { name: 'ci-run-local', base_url: expect.stringMatching(new RegExp(`^${baseUrl}/sandboxes/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)) }, // 1.
      [{ account_number: '92501234561', name: 'Lönekonto', currency: 'SEK', balance: 1000, available_balance: 1000 }], // 2. seeded
      'eid_auth_status: COMPLETE', // 3. AUTO_COMPLETE: the first status call
      { account_number: '92501234561', balance: 1000 }, // 3. AIS in the sandbox
      { now: '2026-11-25T09:00:00.000Z', frozen: true }, // 4. the sandbox's clock, a day on from its pinned start
      defaultClock, // 4. the default sandbox's clock, not moved
      'HTTP 401', // 5. the token expired on the sandbox's clock
      'HTTP 204', // 6. deleted
      { status: 404, code: 'NOT_FOUND' }, // 6. gone
    ]);

    // Through the API afterwards: the sandbox is gone from the list and its id is 404 ...
    const sandboxId = /\/sandboxes\/([0-9a-f-]{36})$/.exec((lines[0] as { base_url: string }).base_url)![1];
    await t.admin.get(`/sandboxes/${sandboxId}`).expect(404);
    expect(await ids()).toEqual(before);
    // ... its user never reached the default sandbox, whose clock stayed where it was.
    await t.admin.get(`/admin/users/${psu}`).expect(404);
    expect(await t.clock.read()).toEqual(defaultClock);
  }, 120_000);
});
