import fc from 'fast-check';
import { JOURNAL_BODY_LIMIT_BYTES, JOURNAL_DEPTH_LIMIT, JOURNAL_REDACTED, recordedBody, recordedStringifiedJson, redactHeaders, redactQuery, type CertificateDescriber } from './journal-redaction';

/** A recorded body as its entry shows it (the members recordedBody writes, read back). */
function redactBody(body: unknown, contentType: string, describe: CertificateDescriber): { body?: unknown; body_truncated?: true } {
  return JSON.parse(`{${recordedBody(body, contentType, describe)}}`) as { body?: unknown; body_truncated?: true };
}

/** The certificate lib's reading, played: any PEM certificate, or Base64 of one or of a DER certificate, is PSDSE-TEST-1's. */
const readCertificate: CertificateDescriber = (value) =>
  /BEGIN( |%20)CERTIFICATE|^\s*MII|^\s*LS0tLS1CRUdJTiBDRVJU/.test(value) ? { organization_id: 'PSDSE-TEST-1', sha256: 'f'.repeat(64) } : null;
const SUMMARY = { organization_id: 'PSDSE-TEST-1', sha256: 'f'.repeat(64) };
/** The summary of a certificate the reader cannot read: a fingerprint of what came, no organization_id. */
const UNREAD_SUMMARY = { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown };

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

  it('contract §14: any spelling of a secret name (accessToken, access-token, ACCESS_TOKEN, a[access_token], access_token[]) and a secret inside a string (a launch link, a fragment) survive in no body, form, query or header the journal keeps', () => {
    const spellings = fc.constantFrom('accessToken', 'access-token', 'ACCESS_TOKEN', 'a[access_token]', 'access_token[]', 'Pending-Code', 'autoStartToken', 'refreshToken');
    const inString = (planted: string) => fc.constantFrom(`eid://autostarttoken=${planted}&redirect=null`, `https://tpp.example/cb#access_token=${planted}&state=1`, `see ?refresh_token=${planted}`, `pending_code="${planted}"`);
    fc.assert(
      fc.property(secret, spellings, secret.chain(inString), (planted, name, text) => {
        const planted2 = /S3CR3T[A-Za-z0-9]+/.exec(text)![0];
        const form = `grant_type=x&${encodeURIComponent(name)}=${planted}&note=${encodeURIComponent(text)}`;
        for (const recorded of [
          redactBody({ deep: [{ [name]: planted, note: text }] }, 'application/json', readCertificate),
          redactBody(JSON.stringify({ [name]: planted, note: text }), 'application/json', readCertificate),
          redactBody(form, 'application/x-www-form-urlencoded', readCertificate),
          redactBody(Object.fromEntries(new URLSearchParams(form)), 'application/x-www-form-urlencoded', readCertificate),
          redactQuery({ [name]: planted, note: text }, readCertificate),
          redactHeaders({ 'X-Auth-Token': planted, 'Api-Key': planted, 'X-Client-Secret': planted, 'X-Session': planted, 'x-note': text }, readCertificate),
        ]) {
          expect(leaks(recorded, planted)).toBe(false);
          expect(leaks(recorded, planted2)).toBe(false);
        }
        expect(recordedStringifiedJson(JSON.stringify({ note: text }))).toBeUndefined();
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

  it('a certificate in any form (PEM, URL-encoded PEM, Base64 of DER or of PEM), under any name and in headers and query, becomes its summary; one the reader cannot read its fingerprint, with no organization_id', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/]{200,400}$/), fc.constantFrom('certificate', 'certificate_pem', 'ca_pem', 'x', 'cert'), (body, name) => {
        const der64 = `MII${body}`;
        const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
        const forms = [der64, pem, Buffer.from(pem).toString('base64'), encodeURIComponent(pem), `subject=x\n${pem}`, `  ${der64.replace(/.{64}/g, '$&\n')}`];
        for (const form of forms) {
          const recorded = redactBody({ [name]: form, list: [form] }, 'application/json', readCertificate);
          expect(recorded).toEqual({ body: { [name]: SUMMARY, list: [SUMMARY] } });
          expect(recordedStringifiedJson(JSON.stringify({ [name]: form }))).toBeUndefined();
          expect(redactQuery({ [name]: form }, readCertificate)).toEqual({ [name]: SUMMARY });
          expect(redactHeaders({ 'x-forwarded-client-cert': form }, readCertificate)).toEqual({ 'x-forwarded-client-cert': SUMMARY });
        }
        // Unreadable: the fingerprint of what came, never the value, never a null.
        const unreadable = redactBody({ certificate: der64 }, 'application/json', () => null).body as { certificate: Record<string, unknown> };
        expect(unreadable.certificate).toEqual(UNREAD_SUMMARY);
      }),
      { numRuns: 50 },
    );
    expect(redactHeaders({ 'x-psd2-client-test-cert': 'not-a-certificate' }, readCertificate)).toEqual({ 'x-psd2-client-test-cert': UNREAD_SUMMARY });
    // Base64 of a PEM private key is the key: redacted, not summarized.
    const key = Buffer.from('-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg' + 'A'.repeat(120) + '\n-----END PRIVATE KEY-----\n').toString('base64');
    expect(redactBody({ whatever: key }, 'application/json', readCertificate)).toEqual({ body: { whatever: JOURNAL_REDACTED } });
    // Short texts that start alike are no certificates.
    expect(redactBody({ word: 'MIGRATIONS', code: 'MIIBxyz' }, 'application/json', readCertificate)).toEqual({ body: { word: 'MIGRATIONS', code: 'MIIBxyz' } });
  });

  it('a body is measured as it was sent: exactly 4 KB is kept whole though "[redacted]" is longer than its secret; over 4 KB is cut though redaction shortens it', () => {
    const padded = (bytes: number, token: string) => JSON.stringify({ token, note: 'n'.repeat(bytes - JSON.stringify({ token, note: '' }).length) });
    const exactly = padded(JOURNAL_BODY_LIMIT_BYTES, 'x');
    const parsed = JSON.parse(exactly) as Record<string, unknown>;
    for (const body of [exactly, parsed]) {
      expect(redactBody(body, 'application/json', readCertificate)).toEqual({ body: { ...parsed, token: JOURNAL_REDACTED } });
    }
    // A parsed body with the size its request declared (Content-Length): that size decides.
    expect(JSON.parse(`{${recordedBody({ token: 'x' }, 'application/json', readCertificate, JOURNAL_BODY_LIMIT_BYTES + 1)}}`)).toEqual({ body: JSON.stringify({ token: JOURNAL_REDACTED }), body_truncated: true });
    const over = padded(JOURNAL_BODY_LIMIT_BYTES + 1, 'S3CR3Tabcdefabcdefabcdefabcdef');
    const recorded = redactBody(over, 'application/json', readCertificate);
    expect(recorded).toEqual({ body: JSON.stringify({ ...(JSON.parse(over) as Record<string, unknown>), token: JOURNAL_REDACTED }), body_truncated: true });
  });

  it('a value of any depth is recorded: cut past JOURNAL_DEPTH_LIMIT levels, as a string with body_truncated, its secrets redacted', () => {
    const depth = 100_000;
    const text = `{"token":"S3CR3Tabcdefabcdefabcdef","a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    for (const body of [text, JSON.parse(text) as unknown]) {
      const recorded = redactBody(body, 'application/json', readCertificate);
      expect(recorded.body_truncated).toBe(true);
      expect(recorded.body).toBe(`{"token":"${JOURNAL_REDACTED}","a":${'{"a":'.repeat(JOURNAL_DEPTH_LIMIT - 1)}"[nested deeper than ${JOURNAL_DEPTH_LIMIT} levels]"${'}'.repeat(JOURNAL_DEPTH_LIMIT)}`);
    }
    // Within the limit: whole.
    let deepest: unknown = 1;
    for (let level = 0; level < JOURNAL_DEPTH_LIMIT; level++) deepest = level % 2 ? { a: deepest } : [deepest];
    expect(redactBody(deepest, 'application/json', readCertificate)).toEqual({ body: deepest });
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
    const names = fc.constantFrom('hint_code', 'code', 'reason', 'key', 'tokens_left', ':x', 'a,', '{b', 'q"r', 'to\\ken', 'to\u212Aen', 'a[access_token]', 'access_token[]', 'user.password', 'x=y', 'x%3Dy', ...SECRET_NAMES);
    const tricky = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(':', ':token', ',"token":', 'x', '', 1, null, 'eid://autostarttoken=abc&redirect=null', 'cb%3Fcode%3Dx', 'cb%3fcode%3dx', '{"token":"x"}', '#access_token=x', '-----BEGIN PRIVATE KEY-----', `MIIB${'Q'.repeat(200)}`, `  LS0tLS1CRUdJTiBDRVJU${'Q'.repeat(200)}`, 'MIIBQQQQQQQQQQQQQQQQ'), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
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
