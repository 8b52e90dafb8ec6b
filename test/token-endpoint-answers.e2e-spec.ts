import * as oauth from 'oauth4webapi';
import { gzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { newPartner } from './support/fixtures';
import { certificate, expectOAuthError, newUser, PSU_IP } from './support/psd2';
import { rawRequest } from './support/raw-http';
import { BASE_TIME, createTestApp, TestApp } from './support/test-app';

/**
 * Contract §2: every answer of the two token endpoints is RFC 6749 JSON with Cache-Control: no-store,
 * errors raised before routing included (body parsing, body size, planned downtime), because the
 * shape is chosen by the request path. Each row of the token-endpoint table touched here is asserted
 * exactly: status, `{ error, error_description }` and nothing else, Content-Type and Cache-Control.
 */
describe('token endpoints answer only RFC 6749 JSON (contract §2 token-endpoint table)', () => {
  let t: TestApp;
  let cert: string;
  let partnerKey: string;
  let user: string;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    base = await t.listen();
    cert = await certificate();
    partnerKey = (await newPartner(t)).api_key;
    user = await newUser(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  /** The credentials of each endpoint and a form that succeeds there. */
  const ENDPOINTS = [
    {
      name: 'PSD2 (/psd2/auth/1.0/token)',
      path: '/psd2/auth/1.0/token',
      credentials: (): Record<string, string> => ({ 'X-PSD2-CLIENT-TEST-CERT': cert, 'PSU-IP-Address': PSU_IP }),
      form: (): Record<string, string> => ({ grant_type: 'non_authenticated_token', user_id: user }),
    },
    {
      name: 'enterprise (/api/auth/1.0/token)',
      path: '/api/auth/1.0/token',
      credentials: (): Record<string, string> => ({ Authorization: `Bearer ${partnerKey}` }),
      form: (): Record<string, string> => ({ grant_type: 'client_credentials' }),
    },
  ];

  describe.each(ENDPOINTS)('$name', ({ path, credentials, form }) => {
    const post = () => t.http.post(path).set(credentials());
    const formText = () => new URLSearchParams(form()).toString();

    it('answers success as application/json with Cache-Control: no-store (contract §2, RFC 6749 §5.1)', async () => {
      const res = await post().type('form').send(form()).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: 'bearer', expires_in: expect.any(Number) });
    });

    it('ignores unknown form parameters up to the 1 000 a form may carry, in a small body: 200, not 413 (contract §2: 413 is for over 1 MB, bounded work; RFC 6749 §3.2)', async () => {
      const unknown = Array.from({ length: 1_000 - Object.keys(form()).length }, (_, i) => `p${i}=1`).join('&');
      const res = await post().type('form').send(`${unknown}&${formText()}`).expect(200);
      expect(res.body).toMatchObject({ access_token: expect.any(String), token_type: 'bearer' });
    });

    it('answers a parameter sent twice with 400 invalid_request saying so, not that it is missing (RFC 6749 §3.2, contract §2 table)', async () => {
      const res = await post().type('form').send(`${formText()}&grant_type=${form().grant_type}`);
      expectOAuthError(res, 400, 'invalid_request');
      expect(res.body.error_description).toMatch(/grant_type is sent more than once/);
    });

    it('answers a form of more than 1 000 parameters, still under 1 MB, with 400 invalid_request saying so, not 413 (contract §2 table, bounded work)', async () => {
      const many = Array.from({ length: 1_001 }, (_, i) => `p${i}=1`).join('&');
      const res = await post().type('form').send(`${formText()}&${many}`);
      expectOAuthError(res, 400, 'invalid_request');
      expect(res.body.error_description).toMatch(/more than 1000 parameters/);
    });

    it('answers malformed JSON sent as application/json with 400 invalid_request, not a problem (contract §2 table)', async () => {
      const res = await post().set('Content-Type', 'application/json').send('{"grant_type": ');
      expectOAuthError(res, 400, 'invalid_request');
      expect(res.body.error_description).toMatch(/JSON/);
    });

    it('answers a wrong charset on the body with 400 invalid_request naming it (contract §2 table)', async () => {
      const json = await post().set('Content-Type', 'application/json; charset=latin1').send(JSON.stringify(form()));
      expectOAuthError(json, 400, 'invalid_request');
      expect(json.body.error_description).toMatch(/charset "latin1"/);
      const urlencoded = await post().set('Content-Type', 'application/x-www-form-urlencoded; charset=koi8-r').send(formText());
      expectOAuthError(urlencoded, 400, 'invalid_request');
      expect(urlencoded.body.error_description).toMatch(/charset "koi8-r"/);
    });

    it('answers a body over 1 MB with 413 invalid_request, form or JSON (contract §2 table)', async () => {
      const big = `${formText()}&padding=${'x'.repeat(1024 * 1024)}`;
      expectOAuthError(await post().type('form').send(big), 413, 'invalid_request');
      expectOAuthError(await post().set('Content-Type', 'application/json').send(JSON.stringify({ padding: 'x'.repeat(1024 * 1024) })), 413, 'invalid_request');
    });

    it('answers an unsupported or undecodable Content-Encoding with 400 invalid_request, and reads a gzip form (contract §2 table)', async () => {
      const unsupported = await post().type('form').set('Content-Encoding', 'compress').send(formText());
      expectOAuthError(unsupported, 400, 'invalid_request');
      expect(unsupported.body.error_description).toMatch(/Content-Encoding/);
      expectOAuthError(await post().type('form').set('Content-Encoding', 'gzip').send(formText()), 400, 'invalid_request');
      // serialize: superagent would otherwise encode the Buffer as a form.
      await post().type('form').set('Content-Encoding', 'gzip').serialize((body) => body).send(gzipSync(formText())).expect(200);
    });

    it('answers planned downtime with 503 temporarily_unavailable and Retry-After to the window\'s end (contract §2 table, §7)', async () => {
      await t.clock.freeze('2026-11-22T07:00:00+01:00');
      const res = await post().type('form').send(form());
      expectOAuthError(res, 503, 'temporarily_unavailable');
      expect(res.headers['retry-after']).toBe(String(45 * 60));
    });

    it('answers a method the endpoint does not have in its own shape too (contract §2: chosen by path)', async () => {
      const res = await t.http.get(path).set(credentials());
      expectOAuthError(res, 404, 'invalid_request');
    });
  });

  it('PSD2: a missing certificate is 401 invalid_client without a WWW-Authenticate challenge (the client authenticates by certificate; contract §2)', async () => {
    const res = await t.http.post('/psd2/auth/1.0/token').set('PSU-IP-Address', PSU_IP).type('form').send({ grant_type: 'non_authenticated_token', user_id: user });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('enterprise: invalid_client carries WWW-Authenticate, error="invalid_token" when a key was sent and refused (contract §2, RFC 6749 §5.2)', async () => {
    const missing = await t.http.post('/api/auth/1.0/token').type('form').send({ grant_type: 'client_credentials' });
    expectOAuthError(missing, 401, 'invalid_client');
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
    const wrong = await t.http.post('/api/auth/1.0/token').set('Authorization', 'Bearer no-such-partner-key-000000').type('form').send({ grant_type: 'client_credentials' });
    expectOAuthError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');
  });

  it('answers body-level errors on the token path in its shape even before credentials are read (contract §1, §2)', async () => {
    const res: Response = await t.http.post('/psd2/auth/1.0/token').set('Content-Type', 'application/json').send('not json');
    expectOAuthError(res, 400, 'invalid_request');
  });

  it('answers a request Node\'s HTTP parser refuses on a token path in RFC 6749 JSON too (contract §2: chosen by path)', async () => {
    const answer = await rawRequest(base, Buffer.from(`POST /psd2/auth/1.0/token HTTP/1.1\r\nHost: sandbox\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/headers/) });
  });

  it('a control character in a header value on a token path is invalid_request naming the header, under a sandbox prefix too (contract §2)', async () => {
    for (const path of ['/psd2/auth/1.0/token', '/sandboxes/default/psd2/auth/1.0/token', '/api/auth/1.0/token', '/sandboxes/0b5c6f9e-2f7e-4d55-9a51-6f0f2f1c2b7a/api/auth/1.0/token']) {
      const answer = await rawRequest(base, Buffer.from(`POST ${path} HTTP/1.1\r\nHost: sandbox\r\nPSU-IP-Address: 10.0.0.1\x01\r\nContent-Length: 0\r\n\r\n`, 'latin1'));
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(answer.body)).toEqual({
        error: 'invalid_request',
        error_description: 'The header PSU-IP-Address must not contain control characters (U+0000–U+001F, U+007F): its value holds U+0001.',
      });
    }
  });

  describe('read by oauth4webapi, the RFC 6749 client the issue was found with', () => {
    let issuer: oauth.AuthorizationServer;
    let enterprise: oauth.AuthorizationServer;
    const client: oauth.Client = { client_id: 'sandbox-tpp' };
    const options = (headers: Record<string, string>) => ({ [oauth.allowInsecureRequests]: true, headers });
    const psd2Headers = () => ({ 'X-PSD2-CLIENT-TEST-CERT': cert, 'PSU-IP-Address': PSU_IP });
    /** The enterprise client authenticates with its partner key as bearer (bank §4.6). */
    const partnerKeyAuth = (key: string): oauth.ClientAuth => (_as, _client, _body, headers) => {
      headers.set('Authorization', `Bearer ${key}`);
    };

    beforeAll(() => {
      issuer = { issuer: base, token_endpoint: `${base}/psd2/auth/1.0/token` };
      enterprise = { issuer: base, token_endpoint: `${base}/api/auth/1.0/token` };
    });

    async function refusal(attempt: Promise<unknown>): Promise<unknown> {
      try {
        await attempt;
      } catch (error) {
        return error;
      }
      throw new Error('expected the token request to be refused');
    }

    it('parses a PSD2 token response (contract §2, §5)', async () => {
      const response = await oauth.genericTokenEndpointRequest(issuer, client, oauth.None(), 'non_authenticated_token', { user_id: user }, options(psd2Headers()));
      const tokens = await oauth.processGenericTokenEndpointResponse(issuer, client, response);
      expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: 'bearer', expires_in: 1800 });
    });

    it('parses PSD2 token errors as RFC 6749 errors (contract §2 table)', async () => {
      const grant = await oauth.genericTokenEndpointRequest(issuer, client, oauth.None(), 'password', {}, options(psd2Headers()));
      const refused = await refusal(oauth.processGenericTokenEndpointResponse(issuer, client, grant));
      expect(refused).toBeInstanceOf(oauth.ResponseBodyError);
      expect(refused).toMatchObject({ error: 'unsupported_grant_type', status: 400 });

      const withoutUser = await oauth.genericTokenEndpointRequest(issuer, client, oauth.None(), 'non_authenticated_token', {}, options(psd2Headers()));
      expect(await refusal(oauth.processGenericTokenEndpointResponse(issuer, client, withoutUser))).toMatchObject({ error: 'invalid_request', status: 400 });
    });

    it('planned downtime is a 503 with the RFC 6749 body (contract §2 table, §7)', async () => {
      // oauth4webapi reads error bodies of 4xx answers only; a 5xx is an unexpected status whose body the caller may read.
      await t.clock.freeze('2026-11-22T07:00:00+01:00');
      const down = await oauth.genericTokenEndpointRequest(issuer, client, oauth.None(), 'non_authenticated_token', { user_id: user }, options(psd2Headers()));
      const unavailable = await refusal(oauth.processGenericTokenEndpointResponse(issuer, client, down));
      expect(unavailable).toMatchObject({ code: oauth.RESPONSE_IS_NOT_CONFORM });
      const answer = (unavailable as oauth.OperationProcessingError).cause as globalThis.Response;
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    });

    it('parses an enterprise client-credentials response (contract §2)', async () => {
      const response = await oauth.clientCredentialsGrantRequest(enterprise, client, partnerKeyAuth(partnerKey), new URLSearchParams(), options({}));
      const tokens = await oauth.processClientCredentialsResponse(enterprise, client, response);
      expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: 'bearer', expires_in: 300 });
    });

    it('reads a refused enterprise key as a Bearer invalid_token challenge (contract §2)', async () => {
      const wrong = await oauth.clientCredentialsGrantRequest(enterprise, client, partnerKeyAuth('no-such-partner-key-000000'), new URLSearchParams(), options({}));
      const refused = await refusal(oauth.processClientCredentialsResponse(enterprise, client, wrong));
      expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
      expect((refused as oauth.WWWAuthenticateChallengeError).cause).toEqual([{ scheme: 'bearer', parameters: { realm: 'sandbox', error: 'invalid_token' } }]);
    });
  });
});
