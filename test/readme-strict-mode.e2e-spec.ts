import { outputLines, readmeBlock, requireCurlAndJq, runBash } from './support/readme-blocks';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

/**
 * README "Strict mode" (issue 18, contract §16): the ```sh block between the strict-mode markers run
 * as written with bash, curl and jq, against the app listening on a plain and a TLS port.
 */
describe('README: strict mode walkthrough (issue 18, contract §16)', () => {
  let t: TestApp;
  let plain: string;
  let strict: string;
  beforeAll(async () => {
    // As `npm start` starts it: with the demo set, which the walkthrough must not trip over.
    t = await createTestApp({ env: { SEED_DEMO: 'on' } });
    strict = await t.listenTls();
    plain = await t.listen();
  });
  afterAll(() => t.close());

  it("the README's strict-mode walkthrough runs as written: issue with the admin key, authorize, token, accounts, the bound token refused on the plain port, then an expired certificate refused at the token endpoint", async () => {
    requireCurlAndJq();
    const run = await runBash(readmeBlock('strict-mode'), { SANDBOX: plain, STRICT: strict, ADMIN_KEY });
    expect(run).toEqual({ code: 0, stderr: '', stdout: expect.any(String) });
    expect(outputLines(run.stdout)).toEqual([
      { now: '2026-11-24T09:00:00.000Z', frozen: true }, // 1. the pinned clock
      '1', // 1. the seeded account
      'COMPLETE', // 3. AUTO_COMPLETE over mutual TLS
      '1', // 4. the accounts read with the token
      'CERTIFICATE_REQUIRED', // 5. no client certificate
      'HTTP 401', // 6. the certificate-bound token on the plain port (contract §16, RFC 8705)
      { now: '2026-12-25T09:00:00.000Z', frozen: true }, // 7. past not_after
      'HTTP 401',
      'invalid_client',
      'false', // 8. real time again
    ]);
  });
});
