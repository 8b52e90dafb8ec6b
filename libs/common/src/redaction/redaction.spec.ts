import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { isSecretName, REDACTED, redactHeaders, redactJson, redactString, redactText, redactUrl, shownIdempotencyKey } from './redaction';

/** A secret value: distinctive, so finding it in the output means it leaked. Base64url and UUID characters. */
const secret = fc.stringMatching(/^[A-Za-z0-9._~-]{20,36}$/).map((value) => `S3CR3T${value}`);

/** Every secret name of contract §14, as clients and this service spell them. */
const FIELD_NAMES = [
  'access_token', 'refresh_token', 'id_token', 'token', 'pending_code', 'pending_authorization_code', 'autostarttoken', 'autostart_token',
  'auto_start_token', 'qr_code', 'qr_string', 'qr_start_token', 'qr_start_secret', 'api_key', 'apikey', 'admin_key', 'admin_api_key',
  'demo_partner_key', 'client_secret', 'client_assertion', 'password', 'secret', 'private_key_pem', 'pkcs12_base64', 'pkcs12_password', 'idempotency_key',
];
/** Secret as parameters (query, form) only: in JSON they name reason and hint codes. */
const PARAMETER_NAMES = [...FIELD_NAMES, 'code', 'key'];
/** The values the string rule finds wherever they appear (contract §14). */
const STRING_RULE_NAMES = ['autostarttoken', 'access_token', 'refresh_token', 'pending_code'];

const words = (name: string) => name.split('_');
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** A name in every spelling contract §14 lists, and a few more: camel, kebab, upper, Pascal, nested, listed. */
const spelling = (name: string) =>
  fc.tuple(
    fc.constantFrom<(n: string) => string>(
      (n) => n,
      (n) => words(n)[0] + words(n).slice(1).map(capitalized).join(''),
      (n) => words(n).join('-'),
      (n) => n.toUpperCase(),
      (n) => words(n).map(capitalized).join(''),
      (n) => words(n).map(capitalized).join('-'),
    ),
    fc.constantFrom<(n: string) => string>(
      (n) => n,
      (n) => `a[${n}]`,
      (n) => `${n}[]`,
      (n) => `data[user][${n}]`,
      (n) => `user.${n}`,
    ),
  ).map(([spell, nest]) => nest(spell(name)));

/** Odd letter case, letter by letter. */
const oddCase = (text: string) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

/** A value of any JSON type that holds the secret. */
const holding = (planted: string) => fc.constantFrom<unknown>(planted, [planted], { value: planted }, [[{ deep: planted }]], `prefix ${planted} suffix`);

/** A JSON document with `value` under `name` at some depth, among harmless members and arrays. */
const plantedJson = (name: string, value: unknown) =>
  fc.tuple(fc.nat({ max: 6 }), fc.dictionary(fc.constantFrom('name', 'amount', '__proto__', 'constructor', 'code', 'key', 'status'), fc.string({ maxLength: 12 }))).map(([depth, noise]) => {
    let node: Record<string, unknown> = { ...noise, [name]: value };
    for (let level = 0; level < depth; level++) node = level % 2 ? { wrapper: [node, 1, null] } : { nested: node, note: 'x' };
    return node;
  });

/**
 * Where a text carries `name=value` (contract §14: after ?, &, #, in launch links, URL fragments, in
 * longer text), or a JSON member of a field's name (`code` and `key` are no secret fields).
 */
const inText = (name: string, value: string, field: boolean) =>
  fc.constantFrom(
    `/sandbox/eid?${name}=${value}`,
    `https://tpp.example/cb?state=1&${name}=${value}&x=2`,
    `https://tpp.example/cb#${name}=${value}&state=1`,
    `eid://${name}=${value}&redirect=null`,
    `bankid:///?${name}=${value}&redirect=null`,
    `open eid://?${name}=${value} in the app`,
    `redirect=${encodeURIComponent(`https://tpp.example/cb?${name}=${value}&state=1`)}`,
    `https://x.example/?next=${encodeURIComponent(encodeURIComponent('y'))}&${encodeURIComponent(name)}=${value}`,
    `${name}="${value}"`,
    `${name}='${value}', more`,
    `${name}=${value}`,
    ...(field ? [`payload {"${name}":"${value}","other":"kept"}`, JSON.stringify({ inner: JSON.stringify({ [name]: value }) })] : []),
  );

/** A secret name (parameters' list), spelled somehow, and whether it is a JSON field's too. */
const spelledName = (names: string[]) => fc.constantFrom(...names).chain((name) => spelling(name).map((spelled) => ({ spelled, field: FIELD_NAMES.includes(name) })));

const leaks = (shown: unknown, planted: string) => (typeof shown === 'string' ? shown : JSON.stringify(shown)).includes(planted);

describe('the one redaction (contract §14: secrets never appear; the journal and the logs alike)', () => {
  describe('names: one list, any spelling', () => {
    it('contract §14: a JSON field of any secret name, in any spelling, at any depth, holding any JSON type, is redacted', () => {
      fc.assert(
        fc.property(secret, fc.constantFrom(...FIELD_NAMES).chain(spelling), (planted, name) =>
          fc.assert(
            fc.property(holding(planted).chain((value) => plantedJson(name, value)), (document) => {
              const { redacted } = redactJson(document, { kind: 'field', depthLimit: 32 });
              expect(leaks(redacted, planted)).toBe(false);
            }),
            { numRuns: 3 },
          ),
        ),
        { numRuns: 300 },
      );
    });

    it('contract §14: a query or form parameter of any secret name (code and key too), in any spelling, repeated or nested, is redacted', () => {
      fc.assert(
        fc.property(secret, fc.constantFrom(...PARAMETER_NAMES).chain(spelling), (planted, name) => {
          for (const query of [{ [name]: planted }, { [name]: [planted, planted] }, { a: { [name]: planted } }, { other: 'x', [name]: { nested: planted } }]) {
            expect(leaks(redactJson(query, { kind: 'parameter', depthLimit: 32 }).redacted, planted)).toBe(false);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('contract §14: code and key are reason and hint codes in JSON, kept; other names are kept', () => {
      const body = { code: 'TOKEN_EXPIRED', key: 'KYC_REQUIRED', reason: { code: 'X' }, token_type: 'bearer', expires_in: 300, hints: [{ code: 'POLLED_TOO_FAST' }] };
      expect(redactJson(body, { kind: 'field', depthLimit: 32 }).redacted).toEqual(body);
      expect(isSecretName('code', 'parameter')).toBe(true);
      expect(isSecretName('code', 'field')).toBe(false);
      for (const name of ['accessToken', 'access-token', 'ACCESS_TOKEN', 'a[access_token]', 'access_token[]', 'AutoStartToken', 'pkcs12Password']) expect(isSecretName(name, 'field')).toBe(true);
    });
  });

  describe('headers: one rule', () => {
    const FRAGMENTS = ['token', 'secret', 'key', 'auth', 'password', 'cookie', 'session', 'signature'];
    const secretHeader = fc
      .tuple(fc.constantFrom('', 'X-', 'X-Client-', 'Proxy-', 'My_'), fc.constantFrom(...FRAGMENTS).chain(oddCase), fc.constantFrom('', '-Value', '-ID', 's', '_v2'))
      .map(([prefix, fragment, suffix]) => `${prefix}${fragment}${suffix}`);

    it('contract §14: the value of every header whose name holds token, secret, key, auth, password, cookie, session or signature (any case) is redacted, a scheme word kept', () => {
      fc.assert(
        fc.property(secret, secretHeader, fc.constantFrom('', 'Bearer ', 'Basic ', 'bearer  ', 'Token ', 'sid='), (planted, name, prefix) => {
          const shown = redactHeaders({ [name]: `${prefix}${planted}`, 'x-request-id': 'r-1' });
          expect(leaks(shown, planted)).toBe(false);
          expect(shown['x-request-id']).toBe('r-1');
          expect(shown[name.toLowerCase()]).toMatch(/^(?:[A-Za-z]+ )?\[redacted\]$/);
        }),
        { numRuns: 300 },
      );
      for (const [name, value, shown] of [
        ['X-Auth-Token', 'abc', REDACTED],
        ['Api-Key', 'abc', REDACTED],
        ['X-Client-Secret', 'abc', REDACTED],
        ['X-Session', 'abc', REDACTED],
        ['Authorization', 'Bearer abc', `Bearer ${REDACTED}`],
        ['Authorization', 'hunter2 abc', REDACTED],
        ['Cookie', 'a=b; c=d', REDACTED],
      ]) {
        expect(redactHeaders({ [name]: value })).toEqual({ [name.toLowerCase()]: shown });
      }
    });

    it('contract §14, §15: Idempotency-Key (any case) is shown as [redacted sha256:<first 12 hex digits of its SHA-256>], never in clear', () => {
      fc.assert(
        fc.property(fc.stringMatching(/^[\x21-\x7e]{1,255}$/), oddCase('Idempotency-Key'), (key, name) => {
          const shown = redactHeaders({ [name]: key })['idempotency-key'];
          expect(shown).toBe(`[redacted sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}]`);
          expect(shown).toBe(shownIdempotencyKey(key));
          if (key.length >= 8) expect(leaks(shown, key)).toBe(false);
        }),
        { numRuns: 300 },
      );
    });

    it('contract §14: any other header keeps its value, but the secrets inside it (a launch link, a fragment)', () => {
      fc.assert(
        fc.property(secret, fc.constantFrom(...STRING_RULE_NAMES).chain(spelling), (planted, name) =>
          fc.assert(
            fc.property(inText(name, planted, true), oddCase('X-Note'), (value, header) => {
              const shown = redactHeaders({ [header]: value, referer: value });
              expect(leaks(shown, planted)).toBe(false);
            }),
            { numRuns: 5 },
          ),
        ),
        { numRuns: 100 },
      );
      expect(redactHeaders({ 'content-type': 'application/json; charset=utf-8', 'user-agent': 'curl/8.5' })).toEqual({ 'content-type': 'application/json; charset=utf-8', 'user-agent': 'curl/8.5' });
    });
  });

  describe('strings: one rule', () => {
    it('contract §14: inside any string the values of autostarttoken=, access_token=, refresh_token=, pending_code= (and every secret name, any spelling) go: after ?, &, #, in launch links, URL-encoded, quoted, in JSON inside the text', () => {
      fc.assert(
        fc.property(secret, spelledName(PARAMETER_NAMES), (planted, { spelled, field }) =>
          fc.assert(
            fc.property(inText(spelled, planted, field), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (text, before, after) => {
              // In a longer text, whatever surrounds it (a space or quote ends the value; so does the end).
              const longer = `${before} ${text} ${after}`;
              for (const shown of [redactText(text), redactText(longer), redactString(longer), redactUrl(text), redactJson({ note: longer }, { kind: 'field', depthLimit: 4 }).redacted]) {
                expect(leaks(shown, planted)).toBe(false);
              }
              // The same text in a JSON text (a log line), and in JSON held in its string.
              const line = JSON.stringify({ msg: longer, req: { url: text } });
              const redactedLine = redactText(line, { json: true });
              expect(leaks(redactedLine, planted)).toBe(false);
              expect((): unknown => JSON.parse(redactedLine)).not.toThrow();
            }),
            { numRuns: 4 },
          ),
        ),
        { numRuns: 400 },
      );
    });

    it('contract §14: a launch link keeps its shape: eid://autostarttoken=[redacted]&redirect=null; a URL keeps every other parameter byte for byte', () => {
      expect(redactText('eid://autostarttoken=6f1a2b3c&redirect=null')).toBe('eid://autostarttoken=%5Bredacted%5D&redirect=null');
      expect(redactUrl('/x?page=2&accessToken=a&sort=-date#access_token=b&state=s')).toBe('/x?page=2&accessToken=%5Bredacted%5D&sort=-date#access_token=%5Bredacted%5D&state=s');
      expect(redactUrl('/x?a%5Baccess_token%5D=a&access_token%5B%5D=b')).toBe('/x?a%5Baccess_token%5D=%5Bredacted%5D&access_token%5B%5D=%5Bredacted%5D');
      fc.assert(
        fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
          // fast-check's URLs hold no secret name... unless its random words spell one.
          if ([...new URL(url).searchParams.keys()].some((name) => isSecretName(name, 'parameter'))) return;
          if (/[?&#](?:[^=&#]*[\W_])?(?:token|code|key|secret|password|apikey)[=%]/i.test(url)) return;
          expect(redactUrl(url)).toBe(url);
        }),
        { numRuns: 100 },
      );
    });

    it('contract §14: a URL is read as the server reads it too: JSON, a link or a parameter percent-encoded in a path segment or a parameter\'s value go', () => {
      fc.assert(
        fc.property(secret, spelledName(FIELD_NAMES), fc.constantFrom(1, 2), (planted, { spelled }, times) => {
          const encoded = (text: string) => (times === 1 ? encodeURIComponent(text) : encodeURIComponent(encodeURIComponent(text)));
          for (const url of [
            `/v2/accounts?note=${encoded(JSON.stringify({ [spelled]: planted }))}&page=2`,
            `/x/${encoded(`eid://autostarttoken=${planted}`)}/y`,
            `/x?next=${encoded(`https://tpp.example/cb#access_token=${planted}`)}#state=1`,
            `/x?bad=%E0%A4%A&note=${encoded(`{"${spelled}":"${planted}"}`)}`,
          ]) {
            const shown = redactUrl(url);
            expect(leaks(shown, planted)).toBe(false);
            expect(shown.endsWith('&page=2') || !url.endsWith('&page=2')).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    });

    it('contract §14: a private key inside a text goes, also in a JSON text', () => {
      fc.assert(
        fc.property(secret, (planted) => {
          const pem = `-----BEGIN PRIVATE KEY-----\n${planted}\n-----END PRIVATE KEY-----`;
          expect(leaks(redactText(`key: ${pem} done`), planted)).toBe(false);
          expect(leaks(redactText(`cut ${pem.slice(0, 40)}`), planted.slice(0, 10))).toBe(false);
          const line = redactText(JSON.stringify({ msg: `key ${pem}`, other: 'kept' }), { json: true });
          expect(leaks(line, planted)).toBe(false);
          expect(JSON.parse(line)).toEqual({ msg: `key ${REDACTED}`, other: 'kept' });
        }),
      );
    });

    it('a redaction is stable: redacting again changes nothing', () => {
      fc.assert(
        fc.property(secret, spelledName(PARAMETER_NAMES), (planted, { spelled, field }) =>
          fc.assert(
            fc.property(inText(spelled, planted, field), (text) => {
              expect(redactText(redactText(text))).toBe(redactText(text));
            }),
            { numRuns: 3 },
          ),
        ),
      );
      expect(redactText('[redacted sha256:0123456789ab]')).toBe('[redacted sha256:0123456789ab]');
      expect(redactText('{"idempotency_key":"[redacted sha256:0123456789ab]"}')).toBe('{"idempotency_key":"[redacted sha256:0123456789ab]"}');
    });

    it('a JSON text stays JSON, whatever its strings hold (quotes, backslashes, =, %3D, PEM labels, JSON)', () => {
      const tricky = fc.oneof(
        fc.string(),
        fc.stringMatching(/^(?:[a-z_]{0,12}|token|access_token|pending_code|=|%3D|%3d|"|'|\\|\\"|:|\{|\}|&|#| |-----BEGIN PRIVATE KEY-----|-----END PRIVATE KEY-----)*$/),
      );
      const value = fc.letrec((tie) => ({
        node: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.constant(null), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(tricky, tie('node'), { maxKeys: 3 })),
      })).node;
      fc.assert(
        fc.property(value, (node) => {
          const text = JSON.stringify({ level: 30, msg: 'x', node, again: JSON.stringify(node) });
          expect((): unknown => JSON.parse(redactText(text, { json: true }))).not.toThrow();
        }),
        { numRuns: 3000 },
      );
    });

    it('work grows with the text, never with its square (long names, long runs of escapes, many separators)', () => {
      // No time is asserted: a quadratic scan would take minutes here and fail by jest's timeout.
      const long = 200_000;
      for (const text of ['a'.repeat(long) + '=x', '%41'.repeat(long / 3) + '%3Dx', 'a=b&'.repeat(long / 4), 'x%3D'.repeat(long / 4), '"a":"'.repeat(long / 5), `token="${'\\'.repeat(long)}`, '\\"token\\":\\"'.repeat(long / 12)]) {
        expect(typeof redactText(text)).toBe('string');
        expect(typeof redactText(JSON.stringify(text), { json: true })).toBe('string');
      }
    });
  });
});
