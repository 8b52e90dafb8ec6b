import fc from 'fast-check';
import { JOURNAL_BODY_LIMIT_BYTES, JOURNAL_REDACTED, recordedBody, recordedStringifiedJson, redactHeaders, redactQuery, type CertificateDescriber } from './journal-redaction';

/** A recorded body as its entry shows it (the members recordedBody writes, read back). */
function redactBody(body: unknown, contentType: string, describe: CertificateDescriber): { body?: unknown; body_truncated?: true } {
  return JSON.parse(`{${recordedBody(body, contentType, describe)}}`) as { body?: unknown; body_truncated?: true };
}

/** The certificate lib's reading, played: any PEM certificate is PSDSE-TEST-1's. */
const readCertificate: CertificateDescriber = (value) => (value.includes('BEGIN CERTIFICATE') ? { organization_id: 'PSDSE-TEST-1', sha256: 'f'.repeat(64) } : null);

/** A secret value: long enough and distinctive enough that finding it in the output means it leaked. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map((value) => `S3CR3T${value}`);

/** The ways clients and this service spell a secret field (contract §14 list). */
const SECRET_NAMES = [
  'access_token', 'refresh_token', 'pending_code', 'pending_authorization_code', 'autostart_token', 'autoStartToken', 'auto_start_token',
  'qr_string', 'qrString', 'qr_code', 'qrStartToken', 'qrStartSecret', 'api_key', 'apiKey', 'admin_key', 'demo_partner_key', 'demoPartnerKey',
  'private_key_pem', 'pkcs12_base64', 'pkcs12_password', 'client_secret', 'ACCESS_TOKEN', 'token',
];
const FORM_NAMES = ['code', 'refresh_token', 'pending_code', 'client_secret', 'access_token', 'autostarttoken'];
const QUERY_NAMES = ['autostarttoken', 'access_token', 'pending_code', 'qr_string', 'api_key', 'key', 'code', 'token'];

/** A JSON document with `value` planted under `name` at some depth, among harmless fields and arrays. */
const plantedJson = (name: string, value: unknown) =>
  fc.tuple(fc.nat({ max: 4 }), fc.dictionary(fc.constantFrom('name', 'amount', '__proto__', 'constructor', 'code', 'status'), fc.string({ maxLength: 20 }))).map(([depth, noise]) => {
    let node: Record<string, unknown> = { ...noise, [name]: value };
    for (let level = 0; level < depth; level++) node = level % 2 ? { wrapper: [node, 1, null] } : { nested: node, note: 'x' };
    return node;
  });

const leaks = (recorded: unknown, planted: string) => JSON.stringify(recorded).includes(planted);

describe('journal redaction (contract §14: secrets never appear)', () => {
  it('no secret planted in a JSON body under any secret name, at any depth, survives', () => {
    fc.assert(
      fc.property(secret, fc.constantFrom(...SECRET_NAMES), (planted, name) =>
        fc.assert(fc.property(plantedJson(name, planted), (document) => {
          for (const body of [document, JSON.stringify(document), Buffer.from(JSON.stringify(document))]) {
            expect(leaks(redactBody(body, 'application/json; charset=utf-8', readCertificate), planted)).toBe(false);
          }
          // An answer's JSON.stringify text is never kept as it is when it holds a secret.
          expect(recordedStringifiedJson(JSON.stringify(document))).toBeUndefined();
        }), { numRuns: 5 }),
      ),
      { numRuns: 60 },
    );
  });

  it('no secret in a form body (the token endpoints) or in a query string survives', () => {
    fc.assert(
      fc.property(secret, fc.constantFrom(...FORM_NAMES), fc.constantFrom(...QUERY_NAMES), (planted, formName, queryName) => {
        const form = `grant_type=authorization_code&${formName}=${planted}&client_id=abc`;
        expect(leaks(redactBody(form, 'application/x-www-form-urlencoded', readCertificate), planted)).toBe(false);
        // The same form as the body parser hands it to the edge: an object, read by the parameter names too.
        expect(leaks(redactBody(Object.fromEntries(new URLSearchParams(form)), 'application/x-www-form-urlencoded', readCertificate), planted)).toBe(false);
        expect(leaks(redactQuery({ [queryName]: planted, other: 'x' }, readCertificate), planted)).toBe(false);
        // A repeated parameter (?autostarttoken=a&autostarttoken=b) is parsed as a list.
        expect(leaks(redactQuery({ [queryName.toUpperCase()]: [planted, planted] }, readCertificate), planted)).toBe(false);
      }),
    );
  });

  it('no credential header survives; the certificate header becomes its organization id and fingerprint', () => {
    fc.assert(
      fc.property(secret, (planted) => {
        const pem = `-----BEGIN CERTIFICATE-----\n${planted}\n-----END CERTIFICATE-----`;
        const headers = redactHeaders(
          { Authorization: `Bearer ${planted}`, cookie: `s=${planted}`, 'x-psd2-client-test-cert': pem, referer: `https://tpp.example/cb?code=${planted}&state=1`, 'x-request-id': 'r-1' },
          readCertificate,
        );
        expect(leaks(headers, planted)).toBe(false);
        expect(headers).toMatchObject({ authorization: `Bearer ${JOURNAL_REDACTED}`, 'x-psd2-client-test-cert': { organization_id: 'PSDSE-TEST-1', sha256: 'f'.repeat(64) }, 'x-request-id': 'r-1' });
      }),
    );
  });

  it('secrets inside string values go too: a private key under any name, a secret link parameter', () => {
    fc.assert(
      fc.property(secret, (planted) => {
        const body = {
          whatever: `-----BEGIN PRIVATE KEY-----\n${planted}\n-----END PRIVATE KEY-----`,
          launch: `bankid:///?autostarttoken=${planted}&redirect=null`,
          page: `/sandbox/eid?pending_code=${planted}`,
        };
        expect(leaks(redactBody(body, 'application/json', readCertificate), planted)).toBe(false);
        expect(recordedStringifiedJson(JSON.stringify(body))).toBeUndefined();
      }),
    );
  });

  it('keeps what is not secret: reason and hint codes, names, amounts', () => {
    const body = { code: 'POLLED_TOO_FAST', reason: { code: 'TOKEN_EXPIRED' }, name: 'Anna', amount: 100.5, hints: [{ code: 'KYC_REQUIRED' }] };
    expect(redactBody(body, 'application/json', readCertificate)).toEqual({ body });
  });

  it('a "__proto__" key stays data: redaction never changes a prototype', () => {
    const recorded = redactBody('{"__proto__":{"polluted":true,"access_token":"S3CR3TabcdefabcdefabcdefXYZ"}}', 'application/json', readCertificate).body as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(recorded)).toBe(Object.prototype);
    expect(JSON.stringify(recorded)).toBe(`{"__proto__":{"polluted":true,"access_token":"${JOURNAL_REDACTED}"}}`);
  });

  it('a body over 4 KB is kept as its first 4 KB, cut on a character boundary, with body_truncated (contract §14)', () => {
    const body = { text: 'å'.repeat(5000), access_token: 'S3CR3Tabcdefabcdefabcdefabc' };
    const recorded = redactBody(body, 'application/json', readCertificate);
    expect(recorded.body_truncated).toBe(true);
    expect(typeof recorded.body).toBe('string');
    expect(Buffer.byteLength(recorded.body as string)).toBeLessThanOrEqual(JOURNAL_BODY_LIMIT_BYTES);
    expect(recorded.body as string).not.toContain('\uFFFD');
    expect(recorded.body as string).not.toContain('S3CR3T');
  });

  it('a body that is neither JSON nor a form is described by type and size only (an HTML page may embed secrets)', () => {
    expect(redactBody('<html>autostart S3CR3Tabc</html>', 'text/html; charset=utf-8', readCertificate)).toEqual({ body: '[text/html, 32 bytes]' });
    expect(redactBody('{not json S3CR3Tabc', 'application/json', readCertificate)).toEqual({ body: '[unparsable JSON, 19 bytes]' });
  });

  it('an answer\'s JSON.stringify text is kept as it is only when redaction would keep it the same (issue 16: no parse on the hot path)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const kept = recordedStringifiedJson(text);
        if (kept !== undefined) expect(kept).toBe(recordedBody(text, 'application/json', readCertificate));
      }),
      { numRuns: 500 },
    );
    // Names that hold a fragment of a secret's name, names with the characters the name scan turns
    // on ({ , : and quotes), secret names among them: kept as is only when redaction would keep it.
    const names = fc.constantFrom('hint_code', 'code', 'reason', 'key', 'tokens_left', ':x', 'a,', '{b', 'q"r', 'to\\ken', 'to\u212Aen', ...SECRET_NAMES);
    const tricky = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(':', ':token', ',"token":', 'x', '', 1, null), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
      object: fc.dictionary(names, tie('value'), { maxKeys: 4 }),
    })).object;
    fc.assert(
      fc.property(tricky, (value) => {
        const text = JSON.stringify(value);
        const kept = recordedStringifiedJson(text);
        if (kept !== undefined) expect(kept).toBe(recordedBody(text, 'application/json', readCertificate));
      }),
      { numRuns: 2000 },
    );
    // An eid status and a problem: a hint code and a reason code are no secrets, no parse needed.
    const status = JSON.stringify({ eid_auth_status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
    expect(recordedStringifiedJson(status)).toBe(`"body":${status}`);
    const problem = JSON.stringify({ type: 'about:blank', status: 409, reason: { code: 'INVALID_STATE', message: 'No signing started' } });
    expect(recordedStringifiedJson(problem)).toBe(`"body":${problem}`);
    expect(recordedStringifiedJson(JSON.stringify({ hint_code: 'X', pending_code: 'S3CR3Tabcdefabcdefabcdef' }))).toBeUndefined();
    // An accounts list, an eid status: nothing secret in them, no parse needed.
    const accounts = JSON.stringify({ accounts: [{ resourceId: 'a-1', iban: 'SE4550000000058398257466', currency: 'SEK', _links: { balances: { href: '/v2/accounts/a-1/balances' } } }] });
    expect(recordedStringifiedJson(accounts)).toBe(`"body":${accounts}`);
    // toLowerCase reads the Kelvin sign as a "k": "to\u212Aen" is a token to the redactor, so to the scan.
    expect(recordedStringifiedJson(JSON.stringify({ ['to\u212Aen']: 'S3CR3Tabcdefabcdefabcdef' }))).toBeUndefined();
    // Over the size limit: the parse and cut of recordedBody.
    expect(recordedStringifiedJson(JSON.stringify({ text: 'x'.repeat(JOURNAL_BODY_LIMIT_BYTES) }))).toBeUndefined();
  });
});
