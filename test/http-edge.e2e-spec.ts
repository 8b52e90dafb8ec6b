import { gzipSync } from 'node:zlib';
import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { type RawAnswer, rawRequest } from './support/raw-http';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

/** A 400 VALIDATION_FAILED problem (contract §2) read off a raw answer; returns its body. */
function expectRawProblem(answer: RawAnswer, instance: string): { reason: { code: string; message: string } } {
  expect(answer.status).toBe(400);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  // Contract §14: every response carries X-Request-Id, these too.
  expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, instance, reason: { code: 'VALIDATION_FAILED', message: expect.any(String) } });
  return body;
}

describe('the HTTP edge answers problems, never a bare 400 or a 500 (contract §2)', () => {
  let t: TestApp;
  let base: string;
  const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.listen();
  });
  afterAll(() => t.close());

  describe('requests Node\'s HTTP parser refuses (clientError)', () => {
    it('raw non-ASCII bytes in the path: 400 VALIDATION_FAILED naming the path, the bytes percent-encoded in instance (contract §2)', async () => {
      const answer = await rawRequest(base, Buffer.from('GET /v2/accounts/\xff HTTP/1.1\r\nHost: sandbox\r\n\r\n', 'latin1'));
      expect(expectRawProblem(answer, '/v2/accounts/%FF').reason.message).toMatch(/path/);
    });

    it('a refused request keeps the X-Request-Id it sent, when well-formed; else gets a fresh one (contract §14)', async () => {
      const kept = await rawRequest(base, Buffer.from('GET /v2/accounts/\xff HTTP/1.1\r\nHost: sandbox\r\nX-Request-Id: ci-run-7.step:3\r\n\r\n', 'latin1'));
      expectRawProblem(kept, '/v2/accounts/%FF');
      expect(kept.headers['x-request-id']).toBe('ci-run-7.step:3');
      const fresh = await rawRequest(base, Buffer.from('GET /v2/accounts/\xff HTTP/1.1\r\nHost: sandbox\r\nX-Request-Id: not/well formed\r\n\r\n', 'latin1'));
      expectRawProblem(fresh, '/v2/accounts/%FF');
      expect(fresh.headers['x-request-id']).not.toBe('not/well formed');
    });

    it('a request line that is not HTTP: 400 problem (contract §2)', async () => {
      expectRawProblem(await rawRequest(base, Buffer.from('HELLO\r\n\r\n')), '/');
    });

    it('headers over the limit: 400 problem naming the headers (contract §2)', async () => {
      const answer = await rawRequest(base, Buffer.from(`GET /health HTTP/1.1\r\nHost: sandbox\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(expectRawProblem(answer, '/health').reason.message).toMatch(/headers/);
    });

    it('a malformed header and a Content-Length beside Transfer-Encoding: 400 problems naming them (contract §2)', async () => {
      const badHeader = await rawRequest(base, Buffer.from('GET /health HTTP/1.1\r\nHost: sandbox\r\nBad Header: x\r\n\r\n'));
      expect(expectRawProblem(badHeader, '/health').reason.message).toMatch(/header/);
      const smuggled = await rawRequest(
        base,
        Buffer.from('POST /admin/partners HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n'),
      );
      expect(expectRawProblem(smuggled, '/admin/partners').reason.message).toMatch(/Content-Length/);
    });

    it('a control character in a header value: 400 VALIDATION_FAILED naming the header and the character, under a sandbox prefix too (contract §2)', async () => {
      const sent = (path: string, header: string) => rawRequest(base, Buffer.from(`POST ${path} HTTP/1.1\r\nHost: sandbox\r\nX-Before: 1\r\n${header}\r\nX-After: 2\r\nContent-Length: 0\r\n\r\n`, 'latin1'));
      const cases: Array<[string, string, string, string]> = [
        ['/psd2/authentication/1.0/authenticate', 'X-Sandbox-User: 19121212\x011212', 'X-Sandbox-User', 'U+0001'],
        ['/psd2/authentication/1.0/authenticate', 'X-Sandbox-User: 19121212\x7f1212', 'X-Sandbox-User', 'U+007F'],
        ['/sandboxes/default/admin/partners', 'Idempotency-Key: ab\x1bcd', 'Idempotency-Key', 'U+001B'],
        ['/sandboxes/default/psd2/authentication/1.0/authenticate', 'PSU-IP-Address: 10.0.0.1\x01', 'PSU-IP-Address', 'U+0001'],
        ['/health', 'X-Anything: a\x00b', 'X-Anything', 'U+0000'],
        // A bare CR in a value is refused by the parser only at the byte after it.
        ['/health', 'X-Anything: a\rb', 'X-Anything', 'U+000D'],
      ];
      for (const [path, header, name, character] of cases) {
        const { message } = expectRawProblem(await sent(path, header), path).reason;
        expect(message).toBe(`The header ${name} must not contain control characters (U+0000–U+001F, U+007F): its value holds ${character}.`);
      }
      const inName = expectRawProblem(await sent('/health', 'X-Bad\x01Name: b'), '/health');
      expect(inName.reason.message).toMatch(/^A header name \(beginning "X-Bad"\) contains a control character \(U\+0001\)/);
    });
  });

  it('bad percent-encoding in the path: 400 VALIDATION_FAILED naming the segment (contract §2)', async () => {
    const res = await t.http.get('/v2/accounts/%E0%A4%A');
    expectValidationFailed(res, '%E0%A4%A');
    expect(res.body.reason.message).toMatch(/percent-encoded/);
    expectValidationFailed(await t.http.get('/admin/users/%E0%A4%A').set(admin), '%E0%A4%A');
    expectValidationFailed(await t.http.get('/health%FF'), '%FF');
  });

  it('answers carry no ETag: the bank\'s document and the OpenAPI description show none', async () => {
    for (const res of [await t.http.get('/admin/users').set(admin), await t.http.get('/health'), await t.http.get('/v2/accounts')]) {
      expect(res.headers.etag).toBeUndefined();
    }
  });

  describe('bodies body-parser refuses', () => {
    it('a wrong charset on a JSON body: 400 VALIDATION_FAILED naming the charset, not 415 (contract §2)', async () => {
      const res = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json; charset=latin1').send('{"name":"Latin AB"}');
      expectValidationFailed(res, 'charset "latin1"');
      expect(res.body.reason.message).toMatch(/Content-Type/);
      const form = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/x-www-form-urlencoded; charset=koi8-r').send('name=x');
      expectValidationFailed(form, 'charset "koi8-r"');
    });

    it('UTF-8, said or unsaid, is read (contract §2)', async () => {
      await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json; charset=utf-8').send('{"name":"Åre AB"}').expect(201);
      await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send('{"name":"Örebro AB"}').expect(201);
    });

    it('an unsupported Content-Encoding, or a body that does not decompress: 400 VALIDATION_FAILED naming Content-Encoding (contract §2)', async () => {
      const unsupported = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').set('Content-Encoding', 'compress').send('{"name":"x"}');
      expectValidationFailed(unsupported, 'Content-Encoding');
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const broken = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"name":"x"}');
        expectValidationFailed(broken, 'Content-Encoding');
      }
      await t.http
        .post('/admin/partners')
        .set(admin)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .serialize((body) => body) // superagent would otherwise encode the Buffer as JSON
        .send(gzipSync('{"name":"Gzip AB"}'))
        .expect(201);
    });

    it('an empty body sent as JSON: 400 naming the missing field, never 500 (contract §2)', async () => {
      expectValidationFailed(await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send(''), 'name');
    });

    it('JSON nested 100 000 levels deep: 400 VALIDATION_FAILED naming the nesting, never 500 (contract §2)', async () => {
      const deep = `{"name":"Deep AB","extra":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
      const res = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send(deep);
      expectValidationFailed(res, 'deeper than 32 levels');
      expectValidationFailed(await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send(`{"name":${'['.repeat(200_000)}${']'.repeat(200_000)}}`), 'deeper');
    });

    it('a body that is not JSON on a route that takes JSON: 400 VALIDATION_FAILED naming Content-Type, nothing written (bank §4 "all bodies are JSON", contract §2)', async () => {
      const user = newPersonalNumber();
      for (const [type, body] of [['application/x-www-form-urlencoded', 'name=Form Namn&kyc_completed=true'], ['text/plain', '{"name":"Text Namn"}'], ['application/xml', '<name>Xml Namn</name>']]) {
        const res = await t.http.put(`/admin/users/${user}`).set(admin).set('Content-Type', type).send(body);
        expectValidationFailed(res, 'Content-Type');
        expect(res.body.reason.message).toContain(type);
      }
      const json = '{"name":"Raw Namn"}';
      const unlabelled = await rawRequest(base, Buffer.from(`PUT /admin/users/${user} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Length: ${json.length}\r\n\r\n${json}`));
      expect(unlabelled.status).toBe(400);
      expect(JSON.parse(unlabelled.body).reason.message).toMatch(/Content-Type.*no Content-Type/);
      await t.admin.get(`/admin/users/${user}`).expect(404);
      // JSON by a JSON media type, with a charset, is read.
      await t.http.put(`/admin/users/${user}`).set(admin).set('Content-Type', 'application/json; charset=utf-8').send('{"name":"Json Namn","kyc_completed":true}').expect(201);
    });

    it('the Content-Type check comes after the credentials (contract §1 order)', async () => {
      await t.http.put(`/admin/users/${newPersonalNumber()}`).type('form').send('name=Form Namn').expect(401);
    });

    it('JSON null or a bare number as the body: 400 VALIDATION_FAILED, never 500 (contract §2)', async () => {
      // It is JSON, so the message says what is wrong with it: not an object, not "not valid JSON".
      for (const body of ['null', '7', '"text"', '[]']) {
        const res = await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send(body);
        expectProblem(res, 400, 'VALIDATION_FAILED');
        expect(res.body.reason.message).toBe('The request body must be a JSON object.');
      }
      expectProblem(await t.http.post('/admin/partners').set(admin).set('Content-Type', 'application/json').send('7'), 400, 'VALIDATION_FAILED');
    });
  });
});
