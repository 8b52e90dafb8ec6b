import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, createSecureContext } from 'node:tls';
import { randomUUID, webcrypto, X509Certificate } from 'node:crypto';
import { Agent } from 'node:https';
import * as x509 from '@peculiar/x509';
import { DataSource } from 'typeorm';
import { JournalWriter } from '@app/common';
import { SandboxesService } from '@app/sandbox';
import { issueTestCertificate, readPsd2Certificate } from '@app/directory';
import { newPartner } from './support/fixtures';
import { clientOf, issueCertificate, type IssuedCertificate, tlsCall, type TlsAnswer, type TlsCallOptions } from './support/mutual-tls';
import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, expectOAuthError, newOrganizationId, newUser, Psd2Client, PSU_IP } from './support/psd2';
import { createSandbox, sandboxView } from './support/sandboxes';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, BASE_TIME, closeApps, createTestApp, type TestApp, twoInstances } from './support/test-app';
import { freshDatabase } from './support/test-db';

const HOUR_MS = 60 * 60 * 1000;

/** A strict-mode problem answer (contract §2, §16): status, code, and the challenge of every 401. */
function expectTlsProblem(res: TlsAnswer, status: number, code: string): string {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/problem\+json/) });
  expect(res.body).toMatchObject({ type: 'about:blank', status, reason: { code, message: expect.any(String) } });
  if (status === 401) expect(res.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
  return res.body.reason?.message ?? '';
}

/** A bearer token refused (contract §2, §16): 401 UNAUTHORIZED with error="invalid_token"; the message matches `message`. */
function expectInvalidToken(res: TlsAnswer, message: RegExp): void {
  expect({ status: res.status, code: res.body.reason?.code, challenge: res.headers['www-authenticate'] }).toEqual({
    status: 401,
    code: 'UNAUTHORIZED',
    challenge: 'Bearer realm="sandbox", error="invalid_token"',
  });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.reason?.message).toMatch(message);
}

/** An RFC 6749 answer of a token endpoint (contract §2). */
function expectTlsOAuthError(res: TlsAnswer, status: number, error: string): string {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error, error_description: expect.any(String) } });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  return String(res.body.error_description);
}

describe('strict mode: mutual TLS with sandbox-issued eIDAS certificates (contract §16)', () => {
  let t: TestApp;
  let base: string;
  let ca: string;

  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    base = await t.listenTls();
    ca = (await t.http.get('/sandbox/ca.pem').expect(200)).text;
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const call = (path: string, options: TlsCallOptions = {}) => tlsCall(base, ca, path, options);
  const issue = (roles: string[] = ['PSP_AI', 'PSP_PI'], extra: Record<string, unknown> = {}, prefix = '') =>
    issueCertificate(t, { organization_id: newOrganizationId(), roles, ...extra }, prefix);
  const orgOf = (issued: IssuedCertificate) => readPsd2Certificate(Buffer.from(issued.certificate_pem).toString('base64')).organizationId as string;

  /** The PSD2 calls of bank §4.1 over TLS with the certificate of the handshake only (no header). */
  const psd2 = (issued: IssuedCertificate | undefined, prefix = '') => {
    const client = issued ? clientOf(issued) : undefined;
    const headers = (extra: Record<string, string> = {}) => ({ 'PSU-IP-Address': PSU_IP, ...extra });
    return {
      start: (user: string, scopes = 'AIS', extra: Record<string, string> = {}, flow: 'authenticate' | 'authorize' = 'authenticate') =>
        call(`${prefix}/psd2/auth/3.0/${flow}`, { client, headers: headers({ 'X-Sandbox-User': user, ...extra }), json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes } }),
      status: (pendingCode: string) => call(`${prefix}/psd2/auth/3.0/status`, { client, headers: headers(), json: { pending_code: pendingCode } }),
      token: (form: Record<string, string>, extra: Record<string, string> = {}) => call(`${prefix}/psd2/auth/1.0/token`, { client, headers: headers(extra), form }),
      accounts: (token: string) => call(`${prefix}/v2/accounts`, { client, headers: headers({ Authorization: `Bearer ${token}` }) }),
    };
  };

  /** A COMPLETE pending code of an AUTO_COMPLETE user, started over TLS with `issued`. */
  async function completedCode(issued: IssuedCertificate, user: string, prefix = '', flow: 'authenticate' | 'authorize' = 'authenticate'): Promise<string> {
    const started = await psd2(issued, prefix).start(user, 'AIS', {}, flow);
    expect(started.status).toBe(200);
    const code = String(started.body.pending_code);
    expect((await psd2(issued, prefix).status(code)).body.eid_auth_status).toBe('COMPLETE');
    return code;
  }

  async function accessToken(issued: IssuedCertificate, user: string, prefix = ''): Promise<string> {
    const exchanged = await psd2(issued, prefix).token({ grant_type: 'pending_authorization_code', pending_code: await completedCode(issued, user, prefix) });
    expect(exchanged.status).toBe(200);
    return String(exchanged.body.access_token);
  }

  /** How many certificates the sandbox CA has issued (its register, the service's). */
  const issuedCount = async () => Number((await t.get(DataSource).query('SELECT count(*)::int AS n FROM issued_certificate'))[0].n);

  describe('the sandbox CA and issuing (contract §16)', () => {
    it('serves the CA certificate at GET /sandbox/ca.pem, valid 2000-01-01 to 2099-12-31, without its key', async () => {
      const res = await t.http.get('/sandbox/ca.pem').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/x-pem-file/);
      expect(res.text).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
      expect(res.text).not.toContain('PRIVATE KEY');
      const certificate = new X509Certificate(res.text);
      expect(certificate.ca).toBe(true);
      expect(new Date(certificate.validFrom).toISOString()).toBe('2000-01-01T00:00:00.000Z');
      expect(new Date(certificate.validTo).toISOString()).toBe('2099-12-31T23:59:59.000Z');
    });

    it('issues a client certificate with the roles and organizationIdentifier, signed by the CA, valid from the sandbox clock\'s now minus an hour to a year after it', async () => {
      const organizationId = newOrganizationId();
      const issued = await issueCertificate(t, { organization_id: organizationId, roles: ['PSP_AI'], common_name: 'Example TPP AB' });
      expect(issued).toEqual({
        serial: expect.stringMatching(/^[0-9A-F]+$/),
        certificate_pem: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
        private_key_pem: expect.stringContaining('-----BEGIN PRIVATE KEY-----'),
        ca_pem: ca,
        pkcs12_base64: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
        pkcs12_password: expect.any(String),
      });
      const certificate = new X509Certificate(issued.certificate_pem);
      expect(certificate.verify(new X509Certificate(ca).publicKey)).toBe(true);
      expect(certificate.checkPrivateKey(await import('node:crypto').then((c) => c.createPrivateKey(issued.private_key_pem)))).toBe(true);
      expect(certificate.serialNumber).toBe(issued.serial);
      expect(certificate.subject).toContain('CN=Example TPP AB');
      const read = readPsd2Certificate(Buffer.from(issued.certificate_pem).toString('base64'));
      expect(read).toMatchObject({ organizationId, roles: ['PSP_AI'] });
      const now = new Date(BASE_TIME).getTime();
      expect(new Date(certificate.validFrom).getTime()).toBe(now - HOUR_MS);
      expect(new Date(certificate.validTo).toISOString()).toBe('2027-11-24T09:00:00.000Z');
    });

    it('issues the chosen validity, and a PKCS#12 that opens with its password', async () => {
      const issued = await issue([], { not_before: '2026-11-01T00:00:00Z', not_after: '2026-12-01T00:00:00+01:00' });
      const certificate = new X509Certificate(issued.certificate_pem);
      expect(new Date(certificate.validFrom).toISOString()).toBe('2026-11-01T00:00:00.000Z');
      expect(new Date(certificate.validTo).toISOString()).toBe('2026-11-30T23:00:00.000Z');
      expect(readPsd2Certificate(Buffer.from(issued.certificate_pem).toString('base64')).roles).toEqual([]);
      expect(() => createSecureContext({ pfx: Buffer.from(issued.pkcs12_base64, 'base64'), passphrase: issued.pkcs12_password })).not.toThrow();
      expect(() => createSecureContext({ pfx: Buffer.from(issued.pkcs12_base64, 'base64'), passphrase: 'wrong' })).toThrow();
    });

    it('keeps the private key and the PKCS#12 out of the request journal (contract §14 redaction)', async () => {
      const res = await t.admin.post('/sandbox/certificates', { organization_id: newOrganizationId(), roles: [] }).expect(201);
      await t.app.get(JournalWriter).flush();
      const entry = (await t.admin.get(`/admin/requests/${String(res.headers['x-request-id'])}`).expect(200)).body;
      const stored = JSON.stringify(entry);
      expect(stored).not.toContain(res.body.private_key_pem.split('\n')[1]);
      expect(stored).not.toContain(res.body.pkcs12_base64.slice(0, 40));
      expect(stored).not.toContain(res.body.pkcs12_password);
      expect(stored).toContain(res.body.serial);
    });

    it.each([
      ['organization_id', { organization_id: 'not valid!', roles: [] }],
      ['organization_id', { roles: ['PSP_AI'] }],
      ['roles', { organization_id: 'PSDSE-FINA-1', roles: ['PSP_XX'] }],
      ['roles', { organization_id: 'PSDSE-FINA-1' }],
      ['not_before', { organization_id: 'PSDSE-FINA-1', roles: [], not_before: 'yesterday' }],
      ['not_after', { organization_id: 'PSDSE-FINA-1', roles: [], not_after: '2027-01-01T00:00:00' }],
      ['not_after', { organization_id: 'PSDSE-FINA-1', roles: [], not_before: '2027-01-01T00:00:00Z', not_after: '2027-01-01T00:00:00Z' }],
      ['not_after', { organization_id: 'PSDSE-FINA-1', roles: [], not_after: '2026-01-01T00:00:00Z' }],
      ['common_name', { organization_id: 'PSDSE-FINA-1', roles: [], common_name: '' }],
    ])('answers 400 VALIDATION_FAILED naming %s for bad input, never a 500 (contract §16, §2)', async (field, body) => {
      expectValidationFailed(await t.admin.post('/sandbox/certificates', body), field);
    });

    it('needs the operator key at the root: none 401 with the challenge, a wrong key or a sandbox\'s own key 401 invalid_token, nothing issued (contract §16, §2)', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false });
      const body = { organization_id: newOrganizationId(), roles: ['PSP_AI'] };
      const before = await issuedCount();
      const none = await t.http.post('/sandbox/certificates').send(body);
      expectProblem(none, 401, 'UNAUTHORIZED');
      expect(none.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
      for (const key of ['wrong-key-0123456789abcdef', sandbox.admin_key]) {
        const refused = await t.http.post('/sandbox/certificates').set({ Authorization: `Bearer ${key}` }).send(body);
        expectProblem(refused, 401, 'UNAUTHORIZED');
        expect(refused.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');
      }
      expect(await issuedCount()).toBe(before);
      expect((await issueCertificate(t, body)).serial).toMatch(/^[0-9A-F]+$/);
    });

    it('takes a sandbox\'s own admin key or the operator key under its prefix; another sandbox\'s key or none is 401 (contract §16, §13 Keys)', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false });
      const other = await createSandbox(t, { seed_demo: false });
      const prefix = `/sandboxes/${sandbox.sandbox_id}`;
      const body = { organization_id: newOrganizationId(), roles: ['PSP_AI'] };
      expect((await issueCertificate(t, body, prefix, sandbox.admin_key)).certificate_pem).toContain('BEGIN CERTIFICATE');
      expect((await issueCertificate(t, body, prefix, ADMIN_KEY)).certificate_pem).toContain('BEGIN CERTIFICATE');
      const before = await issuedCount();
      expectProblem(await t.http.post(`${prefix}/sandbox/certificates`).set({ Authorization: `Bearer ${other.admin_key}` }).send(body), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.post(`${prefix}/sandbox/certificates`).send(body), 401, 'UNAUTHORIZED');
      expect(await issuedCount()).toBe(before);
    });

    it('needs the key on the TLS port too, without a client certificate (contract §16)', async () => {
      const body = { organization_id: newOrganizationId(), roles: [] };
      expectTlsProblem(await call('/sandbox/certificates', { json: body }), 401, 'UNAUTHORIZED');
      expect((await call('/sandbox/certificates', { headers: { Authorization: `Bearer ${ADMIN_KEY}` }, json: body })).status).toBe(201);
    });

    it('keeps GET /sandbox/ca.pem open: no key needed (contract §16)', async () => {
      expect((await t.http.get('/sandbox/ca.pem').expect(200)).text).toBe(ca);
    });
  });

  describe('revocation, per sandbox (contract §16)', () => {
    it('answers 204 on revoking, also when already revoked; an unknown serial 404; a malformed one 400', async () => {
      const issued = await issue();
      await t.admin.post(`/admin/certificates/${issued.serial}/revoke`).expect(204);
      await t.admin.post(`/admin/certificates/${issued.serial.toLowerCase()}/revoke`).expect(204);
      expectProblem(await t.admin.post('/admin/certificates/ABCDEF0123/revoke'), 404, 'NOT_FOUND');
      expectValidationFailed(await t.admin.post('/admin/certificates/not-hex/revoke'), 'serial');
      expectProblem(await t.http.post(`/admin/certificates/${issued.serial}/revoke`), 401);
    });

    it('refuses a revoked certificate in that sandbox only: 401 CERTIFICATE_INVALID there, accepted in another; a reset clears it', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false, clock: { now: BASE_TIME, frozen: true } });
      const inSandbox = sandboxView(t, sandbox);
      const prefix = `/sandboxes/${sandbox.sandbox_id}`;
      const issued = await issue();
      const user = await newUser(t);
      const sandboxUser = await newUser(inSandbox);
      expect((await psd2(issued, prefix).start(sandboxUser)).status).toBe(200);

      await inSandbox.admin.post(`/admin/certificates/${issued.serial}/revoke`).expect(204);
      expect(expectTlsProblem(await psd2(issued, prefix).start(sandboxUser), 401, 'CERTIFICATE_INVALID')).toContain('revoked');
      expect(expectTlsOAuthError(await psd2(issued, prefix).token({ grant_type: 'non_authenticated_token', user_id: sandboxUser }), 401, 'invalid_client')).toContain('revoked');
      expect((await psd2(issued).start(user)).status).toBe(200);

      await t.http.post(`/sandboxes/${sandbox.sandbox_id}/reset`).set({ Authorization: `Bearer ${ADMIN_KEY}` }).expect(200);
      const again = await newUser(inSandbox);
      expect((await psd2(issued, prefix).start(again)).status).toBe(200);
    });
  });

  describe('on the TLS port (contract §16)', () => {
    it('serves the same app: a whole flow with the handshake certificate alone (authenticate, status, token, accounts)', async () => {
      const issued = await issue(['PSP_AI']);
      const user = await newUser(t, { accounts: 1 });
      const token = await accessToken(issued, user);
      const accounts = await psd2(issued).accounts(token);
      expect(accounts.status).toBe(200);
      expect(accounts.body.accounts).toHaveLength(1);
    });

    it('accepts a PKCS#12 client credential as issued', async () => {
      const issued = await issue(['PSP_AI']);
      const user = await newUser(t);
      const res = await call('/psd2/auth/3.0/authenticate', {
        client: { pfx: Buffer.from(issued.pkcs12_base64, 'base64'), passphrase: issued.pkcs12_password },
        headers: { 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user },
        json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' },
      });
      expect(res.status).toBe(200);
    });

    it('answers 401 CERTIFICATE_REQUIRED to a handshake without a client certificate on PSD2 routes, and invalid_client at the token endpoint', async () => {
      const user = await newUser(t);
      expect(expectTlsProblem(await psd2(undefined).start(user), 401, 'CERTIFICATE_REQUIRED')).toContain('client certificate');
      expectTlsProblem(await psd2(undefined).accounts('whatever'), 401, 'CERTIFICATE_REQUIRED');
      const token = await psd2(undefined).token({ grant_type: 'non_authenticated_token', user_id: user });
      expectTlsOAuthError(token, 401, 'invalid_client');
      expect(token.headers['www-authenticate']).toBeUndefined();
    });

    it('needs no client certificate on /health, /admin/*, the lifecycle routes, /sandbox/* helpers, /openapi.json and /docs', async () => {
      expect((await call('/health')).status).toBe(200);
      expect((await call('/sandbox/ca.pem')).text).toBe(ca);
      expect((await call('/openapi.json')).status).toBe(200);
      expect((await call('/docs')).status).toBe(200);
      expect((await call('/sandbox/test-certificate?roles=PSP_AI')).status).toBe(200);
      expect((await call('/admin/clock', { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
      expect((await call('/sandboxes', { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
      expect((await call('/sandbox/certificates', { headers: { Authorization: `Bearer ${ADMIN_KEY}` }, json: { organization_id: newOrganizationId(), roles: [] } })).status).toBe(201);
    });

    it('reads the roles from the certificate: PSP_AI alone cannot start a PIS scope (403 ROLE_NOT_IN_CERTIFICATE)', async () => {
      const issued = await issue(['PSP_AI']);
      const user = await newUser(t);
      expectTlsProblem(await psd2(issued).start(user, 'PIS'), 403, 'ROLE_NOT_IN_CERTIFICATE');
      expectTlsProblem(await psd2(issued).start(user, 'AIS,PIS'), 403, 'ROLE_NOT_IN_CERTIFICATE');
      expect((await psd2(issued).start(user, 'AIS')).status).toBe(200);
    });

    it('binds pending codes to the organization (another certificate of it may exchange one) and the token to the certificate it was exchanged with (contract §16)', async () => {
      const first = await issue(['PSP_AI']);
      const sameOrganization = await issue(['PSP_AI'], { organization_id: orgOf(first) });
      const other = await issue(['PSP_AI']);
      const user = await newUser(t, { accounts: 1 });

      const code = await completedCode(first, user);
      expectTlsOAuthError(await psd2(other).token({ grant_type: 'pending_authorization_code', pending_code: code }), 400, 'invalid_grant');
      const exchanged = await psd2(sameOrganization).token({ grant_type: 'pending_authorization_code', pending_code: code });
      expect(exchanged.status).toBe(200);
      const token = String(exchanged.body.access_token);

      expect((await psd2(sameOrganization).accounts(token)).status).toBe(200);
      expectInvalidToken(await psd2(first).accounts(token), /bound to another client certificate/);
      expectInvalidToken(await psd2(other).accounts(token), /another TPP/);
    });

    it('takes X-PSD2-CLIENT-TEST-CERT only when it is the handshake\'s certificate, else 401', async () => {
      const issued = await issue(['PSP_AI']);
      const user = await newUser(t);
      const same = Buffer.from(issued.certificate_pem).toString('base64');
      expect((await psd2(issued).start(user, 'AIS', { 'X-PSD2-CLIENT-TEST-CERT': same })).status).toBe(200);
      const testCertificate = (await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI', organization_id: orgOf(issued) }).expect(200)).body.certificate;
      const message = expectTlsProblem(await psd2(issued).start(user, 'AIS', { 'X-PSD2-CLIENT-TEST-CERT': testCertificate }), 401, 'UNAUTHORIZED');
      expect(message).toContain('X-PSD2-CLIENT-TEST-CERT');
    });

    it('answers 401 CERTIFICATE_INVALID to a client certificate of a foreign CA (GET /sandbox/test-certificate\'s are not the sandbox CA\'s either)', async () => {
      const foreign = await foreignCertificate(newOrganizationId());
      const user = await newUser(t);
      const client = psd2(undefined);
      const res = await call('/psd2/auth/3.0/authenticate', {
        client: foreign,
        headers: { 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user },
        json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' },
      });
      expect(expectTlsProblem(res, 401, 'CERTIFICATE_INVALID')).toContain('not issued by the sandbox CA');
      void client;
      const token = await call('/psd2/auth/1.0/token', { client: foreign, headers: { 'PSU-IP-Address': PSU_IP }, form: { grant_type: 'non_authenticated_token', user_id: user } });
      expectTlsOAuthError(token, 401, 'invalid_client');
    });

    it('answers 401 CERTIFICATE_INVALID to a certificate of another deployment\'s CA (the sandbox CA\'s name, another RSA key), and the port keeps answering every route (contract §16)', async () => {
      const impostor = await impostorCertificate(newOrganizationId());
      const user = await newUser(t);
      const start = await call('/psd2/auth/3.0/authenticate', {
        client: impostor,
        headers: { 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user },
        json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' },
      });
      expect(expectTlsProblem(start, 401, 'CERTIFICATE_INVALID')).toContain('not issued by the sandbox CA');
      const token = await call('/psd2/auth/1.0/token', { client: impostor, headers: { 'PSU-IP-Address': PSU_IP }, form: { grant_type: 'non_authenticated_token', user_id: user } });
      expectTlsOAuthError(token, 401, 'invalid_client');
      // Routes that need no certificate answer as ever with that certificate in the handshake.
      expect((await call('/health', { client: impostor })).status).toBe(200);
      expect((await call('/health')).status).toBe(200);
    });

    it('judges validity by the sandbox clock: valid a millisecond before not_after, expired at exactly not_after (401 CERTIFICATE_INVALID, invalid_client at the token endpoint; bank §7.1 case 1; contract §6, §16)', async () => {
      const issued = await issue(['PSP_AI'], { not_after: '2026-11-24T12:00:00+01:00' });
      const user = await newUser(t);
      expect((await psd2(issued).start(user)).status).toBe(200);
      // Validity is [not_before, not_after): contract §6 makes every period half-open, RFC 5280's inclusive notAfter notwithstanding.
      await t.clock.set('2026-11-24T11:59:59.999+01:00', true);
      expect((await psd2(issued).start(user)).status).toBe(200);
      await t.clock.set('2026-11-24T12:00:00.000+01:00', true);
      expect(expectTlsProblem(await psd2(issued).start(user), 401, 'CERTIFICATE_INVALID')).toContain('expired');
      expect(expectTlsOAuthError(await psd2(issued).token({ grant_type: 'non_authenticated_token', user_id: user }), 401, 'invalid_client')).toContain('expired');
    });

    it('judges validity by the sandbox clock: not yet valid a millisecond before not_before, valid from exactly not_before (contract §6, §16)', async () => {
      const issued = await issue(['PSP_AI'], { not_before: '2026-11-25T10:00:00+01:00' });
      const user = await newUser(t);
      expect(expectTlsProblem(await psd2(issued).start(user), 401, 'CERTIFICATE_INVALID')).toContain('not yet valid');
      await t.clock.set('2026-11-25T09:59:59.999+01:00', true);
      expect(expectTlsProblem(await psd2(issued).start(user), 401, 'CERTIFICATE_INVALID')).toContain('not yet valid');
      await t.clock.set('2026-11-25T10:00:00.000+01:00', true);
      expect((await psd2(issued).start(user)).status).toBe(200);
    });

    it('requires a client certificate (any role) on partner and enterprise routes besides the key', async () => {
      const partner = await newPartner(t);
      const key = { Authorization: `Bearer ${partner.api_key}` };
      const rate = '/api/interest-rates/2.0/effective-interest-rate?loan_amount=100000&nominal_interest_rate=5&term_months=120';
      expectTlsProblem(await call(rate, { headers: key }), 401, 'CERTIFICATE_REQUIRED');
      const issued = await issue([]);
      expect((await call(rate, { headers: key, client: clientOf(issued) })).status).toBe(200);
      expectTlsProblem(await call(rate, { client: clientOf(issued) }), 401, 'UNAUTHORIZED');

      const enterprise = await call('/api/auth/1.0/token', { headers: key, form: { grant_type: 'client_credentials' } });
      expectTlsOAuthError(enterprise, 401, 'invalid_client');
      expect(enterprise.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
      expect((await call('/api/auth/1.0/token', { headers: key, client: clientOf(issued), form: { grant_type: 'client_credentials' } })).status).toBe(200);
    });

    it('requires a client certificate on GET /sandbox/requests, whose TPP it then names', async () => {
      const issued = await issue(['PSP_AI']);
      expectTlsProblem(await call('/sandbox/requests'), 401, 'CERTIFICATE_REQUIRED');
      const user = await newUser(t);
      expect((await psd2(issued).start(user)).status).toBe(200);
      const other = await issue(['PSP_AI']);
      expect((await psd2(other).start(user)).status).toBe(200);
      await t.app.get(JournalWriter).flush();
      const mine = await call('/sandbox/requests', { client: clientOf(issued) });
      expect(mine.status).toBe(200);
      const entries = mine.body.entries as Array<{ path: string; caller?: { id: string } }>;
      expect(entries.map((entry) => entry.path)).toContain('/psd2/auth/3.0/authenticate');
      expect(entries.every((entry) => entry.caller?.id === orgOf(issued))).toBe(true);
    });

    it('still sees the client certificate on a resumed TLS session', async () => {
      const issued = await issue(['PSP_AI']);
      const user = await newUser(t);
      const agent = new Agent({ keepAlive: false, maxCachedSessions: 10 });
      const client = clientOf(issued);
      const json = { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' };
      const headers = { 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user };
      const first = await call('/psd2/auth/3.0/authenticate', { client, headers, json, agent });
      const second = await call('/psd2/auth/3.0/authenticate', { client, headers, json, agent });
      agent.destroy();
      expect({ first: first.status, second: second.status, resumed: second.resumed }).toEqual({ first: 200, second: 200, resumed: true });
    });

    it('leaves the plain port as it was: the header certificate, neither chain nor dates validated (contract §3)', async () => {
      const user = await newUser(t);
      const testCertificate = (await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI' }).expect(200)).body.certificate;
      await t.http
        .post('/psd2/auth/3.0/authenticate')
        .set({ 'X-PSD2-CLIENT-TEST-CERT': testCertificate, 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user })
        .send({ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' })
        .expect(200);
    });
  });

  describe('certificate-bound tokens (contract §16, RFC 8705 §3)', () => {
    /** Two certificates of one organization, and another organization's. */
    async function sameOrganizationPair(roles: string[] = ['PSP_AI']): Promise<[IssuedCertificate, IssuedCertificate]> {
      const first = await issue(roles);
      return [first, await issue(roles, { organization_id: orgOf(first) })];
    }
    /** The same certificate as a plain-port TPP (X-PSD2-CLIENT-TEST-CERT: Base64 of its PEM; contract §3). */
    const onPlainPort = (issued: IssuedCertificate) => new Psd2Client(t, Buffer.from(issued.certificate_pem).toString('base64'));
    const refresh = (issued: IssuedCertificate, refreshToken: string) => psd2(issued).token({ grant_type: 'refresh_token', refresh_token: refreshToken });

    it('binds an access token to the certificate of its handshake: another certificate of the same organization is 401 invalid_token', async () => {
      const [first, second] = await sameOrganizationPair();
      const user = await newUser(t, { accounts: 1 });
      const token = await accessToken(first, user);
      expect((await psd2(first).accounts(token)).status).toBe(200);
      expectInvalidToken(await psd2(second).accounts(token), /bound to another client certificate/);
      // Read once, kept in this instance's memory: still bound (contract §16 with issue 19's cache).
      expectInvalidToken(await psd2(second).accounts(token), /bound to another client certificate/);
      expect((await psd2(first).accounts(token)).status).toBe(200);
    });

    it('binds the refresh token and what it buys: another certificate of the organization is 400 invalid_grant at the refresh grant, and that refused use is not counted', async () => {
      const [first, second] = await sameOrganizationPair();
      const user = await newUser(t, { accounts: 1 });
      const code = await completedCode(first, user, '', 'authorize');
      const exchanged = await psd2(first).token({ grant_type: 'pending_authorization_code', pending_code: code });
      expect(exchanged.status).toBe(200);
      const refreshToken = String(exchanged.body.refresh_token);

      expect(expectTlsOAuthError(await refresh(second, refreshToken), 400, 'invalid_grant')).toMatch(/bound to another client certificate/);
      const refreshed = await refresh(first, refreshToken);
      expect(refreshed.status).toBe(200);
      const access = String(refreshed.body.access_token);
      expect((await psd2(first).accounts(access)).status).toBe(200);
      expectInvalidToken(await psd2(second).accounts(access), /bound to another client certificate/);
      // Bank §5.5: 4 uses a day; the refused use above took none of them.
      for (let use = 2; use <= 4; use++) expect((await refresh(first, refreshToken)).status).toBe(200);
      expectTlsOAuthError(await refresh(first, refreshToken), 400, 'invalid_grant');
    });

    it('binds a non-authenticated token to the certificate of its handshake', async () => {
      const [first, second] = await sameOrganizationPair();
      const user = await newUser(t, { accounts: 1 });
      const issued = await psd2(first).token({ grant_type: 'non_authenticated_token', user_id: user });
      expect(issued.status).toBe(200);
      const token = String(issued.body.access_token);
      expect((await psd2(first).accounts(token)).status).toBe(200);
      expectInvalidToken(await psd2(second).accounts(token), /bound to another client certificate/);
    });

    it('keeps the two ports apart: a plain-port token is 401 invalid_token on the TLS port and a TLS-port token on the plain port, even with the same certificate; refresh tokens 400 invalid_grant', async () => {
      const issued = await issue(['PSP_AI']);
      const plain = onPlainPort(issued);
      const user = await newUser(t, { accounts: 1 });

      const plainTokens = await plain.tokens({ flow: 'authorize', user, scopes: 'AIS' });
      await t.http.get('/v2/accounts').set(bearer(plain, plainTokens.access_token)).expect(200);
      expectInvalidToken(await psd2(issued).accounts(plainTokens.access_token), /obtained on the plain port/);
      expect(expectTlsOAuthError(await refresh(issued, String(plainTokens.refresh_token)), 400, 'invalid_grant')).toMatch(/obtained on the plain port/);

      const code = await completedCode(issued, user, '', 'authorize');
      const tlsTokens = (await psd2(issued).token({ grant_type: 'pending_authorization_code', pending_code: code })).body;
      const refused = await t.http.get('/v2/accounts').set(bearer(plain, String(tlsTokens.access_token)));
      expectProblem(refused, 401, 'UNAUTHORIZED');
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');
      expect(refused.body.reason.message).toMatch(/not on the plain port/);
      const plainRefresh = await plain.refresh(String(tlsTokens.refresh_token));
      expectOAuthError(plainRefresh, 400, 'invalid_grant');
      expect(plainRefresh.body.error_description).toMatch(/not on the plain port/);
      const nonAuthenticated = (await psd2(issued).token({ grant_type: 'non_authenticated_token', user_id: user })).body;
      expectProblem(await t.http.get('/v2/accounts').set(bearer(plain, String(nonAuthenticated.access_token))), 401, 'UNAUTHORIZED');
    });

    it('ends a bound token with the revocation of its certificate: the next request with it is 401, with that certificate or another of the organization', async () => {
      const [first, second] = await sameOrganizationPair();
      const user = await newUser(t, { accounts: 1 });
      const code = await completedCode(first, user, '', 'authorize');
      const tokens = (await psd2(first).token({ grant_type: 'pending_authorization_code', pending_code: code })).body;
      const token = String(tokens.access_token);
      expect((await psd2(first).accounts(token)).status).toBe(200);

      await t.admin.post(`/admin/certificates/${first.serial}/revoke`).expect(204);
      expect(expectTlsProblem(await psd2(first).accounts(token), 401, 'CERTIFICATE_INVALID')).toContain('revoked');
      expectInvalidToken(await psd2(second).accounts(token), /bound to another client certificate/);
      expect(expectTlsOAuthError(await refresh(first, String(tokens.refresh_token)), 401, 'invalid_client')).toContain('revoked');
      expectTlsOAuthError(await refresh(second, String(tokens.refresh_token)), 400, 'invalid_grant');
      // The other certificate itself still works: revocation ends what is bound to the revoked one.
      expect((await psd2(second).accounts(await accessToken(second, user))).status).toBe(200);
    });

    it('binds enterprise client-credentials and end-user tokens to the certificate of their handshake: another certificate of the organization, or the other port, is 401 invalid_token', async () => {
      const [first, second] = await sameOrganizationPair([]);
      const partner = await newPartner(t);
      const key = { Authorization: `Bearer ${partner.api_key}` };
      const rate = '/api/interest-rates/2.0/effective-interest-rate?loan_amount=100000&nominal_interest_rate=5&term_months=120';

      const clientCredentials = await call('/api/auth/1.0/token', { headers: key, client: clientOf(first), form: { grant_type: 'client_credentials' } });
      expect(clientCredentials.status).toBe(200);
      const cc = { Authorization: `Bearer ${String(clientCredentials.body.access_token)}` };
      expect((await call(rate, { headers: cc, client: clientOf(first) })).status).toBe(200);
      expectInvalidToken(await call(rate, { headers: cc, client: clientOf(second) }), /bound to another client certificate/);
      const plainUse = await t.http.get(rate).set(cc);
      expectProblem(plainUse, 401, 'UNAUTHORIZED');
      expect(plainUse.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');

      const plainToken = (await t.http.post('/api/auth/1.0/token').set(key).type('form').send({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      await t.http.get(rate).set({ Authorization: `Bearer ${plainToken}` }).expect(200);
      expectInvalidToken(await call(rate, { headers: { Authorization: `Bearer ${plainToken}` }, client: clientOf(first) }), /obtained on the plain port/);

      const user = await newUser(t);
      const query = new URLSearchParams({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: user });
      const authorized = await call(`/api/auth/1.0/authorize?${query.toString()}`, { headers: key, client: clientOf(first) });
      expect(authorized.status).toBe(200);
      const exchanged = await call('/api/auth/1.0/token', {
        headers: key,
        client: clientOf(first),
        form: { grant_type: 'pending_authorization_code', pending_code: String(authorized.body.pending_authorization_code) },
      });
      expect(exchanged.status).toBe(200);
      const endUser = { Authorization: `Bearer ${String(exchanged.body.access_token)}` };
      const status = `/api/loan-application/2.0/mortgages/status/${randomUUID()}`;
      expectTlsProblem(await call(status, { headers: endUser, client: clientOf(first) }), 404, 'NOT_FOUND');
      expectInvalidToken(await call(status, { headers: endUser, client: clientOf(second) }), /bound to another client certificate/);
      expectProblem(await t.http.get(status).set(endUser), 401, 'UNAUTHORIZED');
    });
  });

  describe('organization ids beginning with sha256: are refused (contract §16, §3)', () => {
    const borrowed = `sha256:${'ab'.repeat(32)}`;

    it('at issuing, at the root and under a sandbox prefix: 400 naming organization_id, nothing issued', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false });
      const before = await issuedCount();
      for (const prefix of ['', `/sandboxes/${sandbox.sandbox_id}`]) {
        const res = await t.http.post(`${prefix}/sandbox/certificates`).set({ Authorization: `Bearer ${ADMIN_KEY}` }).send({ organization_id: borrowed, roles: [] });
        expectValidationFailed(res, 'organization_id');
        expect(res.body.reason.message).toContain('sha256:');
      }
      expect(await issuedCount()).toBe(before);
    });

    it('at GET /sandbox/test-certificate, PUT /admin/tpps/{organization_id} and in a fixture\'s tpps (POST /admin/seed, POST /sandboxes): 400 naming it, nothing written', async () => {
      const minted = await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI', organization_id: borrowed });
      expectValidationFailed(minted, 'organization_id');
      expect(minted.body.reason.message).toContain('sha256:');
      const tpps = async () => Number((await t.get(DataSource).query(`SELECT count(*)::int AS n FROM tpp WHERE identifier LIKE 'sha256:%'`))[0].n);
      const before = await tpps();
      const put = await t.admin.put(`/admin/tpps/${borrowed}`, { non_authenticated_token_lifetime_s: 600 });
      expectValidationFailed(put, 'organization_id');
      expect(put.body.reason.message).toContain('sha256:');
      expectValidationFailed(await t.admin.post('/admin/seed', { tpps: [{ organization_id: borrowed, non_authenticated_token_lifetime_s: 600 }] }), 'tpps.0.organization_id');
      const sandboxes = Number((await t.get(DataSource).query('SELECT count(*)::int AS n FROM sandbox'))[0].n);
      const created = await t.http
        .post('/sandboxes')
        .set({ Authorization: `Bearer ${ADMIN_KEY}` })
        .send({ name: 'borrowed', seed_demo: false, fixture: { tpps: [{ organization_id: borrowed, non_authenticated_token_lifetime_s: 600 }] } });
      expectValidationFailed(created, 'fixture.tpps.0.organization_id');
      expect(Number((await t.get(DataSource).query('SELECT count(*)::int AS n FROM sandbox'))[0].n)).toBe(sandboxes);
      expect(await tpps()).toBe(before);
    });

    it('in X-PSD2-CLIENT-TEST-CERT: a certificate that borrows the sha256: name of a certificate without an organization id is 401, and does not become that TPP', async () => {
      const user = await newUser(t);
      const anonymous = await certificateWithoutOrganizationId();
      const fingerprint = readPsd2Certificate(anonymous.toString('base64')).fingerprint;
      const start = (certificate: string) =>
        t.http
          .post('/psd2/auth/3.0/authenticate')
          .set({ 'X-PSD2-CLIENT-TEST-CERT': certificate, 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user })
          .send({ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' });
      // The certificate without an organization id is the TPP sha256:<its fingerprint> (contract §3).
      expectProblem(await start(anonymous.toString('base64')), 403, 'ROLE_NOT_IN_CERTIFICATE');
      const impostor = (await issueTestCertificate({ roles: ['PSP_AI'], organizationId: `sha256:${fingerprint}`, now: new Date(BASE_TIME) })).toString('base64');
      const refused = await start(impostor);
      expectProblem(refused, 401, 'UNAUTHORIZED');
      expect(refused.body.reason.message).toContain('sha256:');
      expectProblem(await t.http.get('/sandbox/requests').set({ 'X-PSD2-CLIENT-TEST-CERT': impostor }), 401, 'UNAUTHORIZED');
    });

    it('in the TLS client certificate, even one the sandbox CA signed: 401 CERTIFICATE_INVALID, invalid_client at the token endpoint', async () => {
      const user = await newUser(t);
      const borrowing = await signedBySandboxCa(t, borrowed);
      const start = await call('/psd2/auth/3.0/authenticate', {
        client: borrowing,
        headers: { 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user },
        json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' },
      });
      expect(expectTlsProblem(start, 401, 'CERTIFICATE_INVALID')).toContain('sha256:');
      const token = await call('/psd2/auth/1.0/token', { client: borrowing, headers: { 'PSU-IP-Address': PSU_IP }, form: { grant_type: 'non_authenticated_token', user_id: user } });
      expectTlsOAuthError(token, 401, 'invalid_client');
    });
  });
});

describe('the TLS port\'s server certificate (contract §16)', () => {
  /** The server certificate the TLS port presents, read from a handshake. */
  function serverCertificate(base: string, ca: string): Promise<X509Certificate> {
    return new Promise((resolve, reject) => {
      const url = new URL(base);
      const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca, servername: 'localhost' }, () => {
        const peer = socket.getPeerX509Certificate();
        socket.end();
        if (peer) resolve(peer);
        else reject(new Error('no server certificate'));
      });
      socket.on('error', reject);
    });
  }

  it('is issued at start by the sandbox CA for localhost, 127.0.0.1 and TLS_HOSTNAMES when TLS_CERT/TLS_KEY are unset', async () => {
    const t = await createTestApp({ env: { TLS_HOSTNAMES: 'sandbox.example.com,10.1.2.3' } });
    try {
      const base = await t.listenTls();
      const ca = (await t.http.get('/sandbox/ca.pem').expect(200)).text;
      const certificate = await serverCertificate(base, ca);
      expect(certificate.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, DNS:sandbox.example.com, IP Address:10.1.2.3');
      expect(certificate.verify(new X509Certificate(ca).publicKey)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('is TLS_CERT with TLS_KEY when given (PEM files)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strict-tls-'));
    const own = await foreignCertificate('localhost');
    writeFileSync(join(dir, 'server.pem'), own.cert);
    writeFileSync(join(dir, 'server.key'), own.key);
    const t = await createTestApp({ env: { TLS_CERT: join(dir, 'server.pem'), TLS_KEY: join(dir, 'server.key') } });
    try {
      const base = await t.listenTls();
      const certificate = await serverCertificate(base, own.cert);
      expect(certificate.fingerprint256).toBe(new X509Certificate(own.cert).fingerprint256);
      expect((await tlsCall(base, own.cert, '/health')).status).toBe(200);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('issuing certificates without ADMIN_API_KEY (contract §16, §13 Keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_API_KEY: '' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('is 403 at the root, with or without a key; a created sandbox\'s own admin key issues under its prefix', async () => {
    const body = { organization_id: newOrganizationId(), roles: ['PSP_AI'] };
    expectProblem(await t.http.post('/sandbox/certificates').send(body), 403, 'FORBIDDEN');
    expectProblem(await t.http.post('/sandbox/certificates').set({ Authorization: `Bearer ${ADMIN_KEY}` }).send(body), 403, 'FORBIDDEN');
    const sandbox = await t.get(SandboxesService).create({ name: 'self-administered', seed_demo: false }, 'http://localhost');
    const prefix = `/sandboxes/${sandbox.sandbox_id}`;
    expect((await issueCertificate(t, body, prefix, sandbox.admin_key)).serial).toMatch(/^[0-9A-F]+$/);
    expectProblem(await t.http.post(`${prefix}/sandbox/certificates`).send(body), 401, 'UNAUTHORIZED');
    expect((await t.http.get('/sandbox/ca.pem').expect(200)).text).toContain('BEGIN CERTIFICATE');
  });
});

describeOnServer('certificate-bound tokens on two instances sharing one database (contract §16)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances({ frozenAt: BASE_TIME });
  });
  afterAll(() => closeApps(a, b));

  it('a revocation on one instance ends the bound tokens on the other within a second: the next request there is 401', async () => {
    const base = await b.listenTls();
    const ca = (await b.http.get('/sandbox/ca.pem').expect(200)).text;
    const issued = await issueCertificate(a, { organization_id: newOrganizationId(), roles: ['PSP_AI'] });
    const client = clientOf(issued);
    const user = await newUser(a, { accounts: 1 });
    const headers = { 'PSU-IP-Address': PSU_IP };
    const started = await tlsCall(base, ca, '/psd2/auth/3.0/authenticate', {
      client,
      headers: { ...headers, 'X-Sandbox-User': user },
      json: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS' },
    });
    const pendingCode = String(started.body.pending_code);
    expect((await tlsCall(base, ca, '/psd2/auth/3.0/status', { client, headers, json: { pending_code: pendingCode } })).body.eid_auth_status).toBe('COMPLETE');
    const token = String(
      (await tlsCall(base, ca, '/psd2/auth/1.0/token', { client, headers, form: { grant_type: 'pending_authorization_code', pending_code: pendingCode } })).body.access_token,
    );
    const read = () => tlsCall(base, ca, '/v2/accounts', { client, headers: { ...headers, Authorization: `Bearer ${token}` } });
    expect((await read()).status).toBe(200); // the token and the revocation list now in b's memory

    await a.admin.post(`/admin/certificates/${issued.serial}/revoke`).expect(204);
    // b reads the sandbox's revocations again once its copy is a second old (contract §16).
    const deadline = Date.now() + 1500;
    let res: TlsAnswer;
    do {
      res = await read();
      if (res.status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < deadline);
    expect(expectTlsProblem(res, 401, 'CERTIFICATE_INVALID')).toContain('revoked');
  });
});

describeOnServer('the sandbox CA is one per service (contract §16)', () => {
  it('is created once when several instances start at once on one database, and they all serve it', async () => {
    const db = await freshDatabase();
    const apps = await Promise.all([createTestApp({ db, keepClock: true }), createTestApp({ db, keepClock: true }), createTestApp({ db, keepClock: true })]);
    try {
      const pems = await Promise.all(apps.map(async (app) => (await app.http.get('/sandbox/ca.pem').expect(200)).text));
      expect(new Set(pems).size).toBe(1);
      const restarted = await createTestApp({ db, keepClock: true });
      expect((await restarted.http.get('/sandbox/ca.pem').expect(200)).text).toBe(pems[0]);
      await restarted.close();
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await db.drop();
    }
  });
});

/** A client certificate and key of a CA the sandbox does not know. */
async function foreignCertificate(organizationId: string): Promise<{ cert: string; key: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '0badca',
      name: `CN=${organizationId}, 2.5.4.97=${organizationId}`,
      keys,
      notBefore: new Date('2000-01-01T00:00:00Z'),
      notAfter: new Date('2099-01-01T00:00:00Z'),
      signingAlgorithm: algorithm,
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }])],
    },
    webcrypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: certificate.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)?.join('\n')}\n-----END PRIVATE KEY-----\n` };
}

/**
 * A client certificate of another deployment of the sandbox: a CA with the sandbox CA's own name
 * and algorithm, but its own RSA key, so only the signature tells them apart.
 */
async function impostorCertificate(organizationId: string): Promise<{ cert: string; key: string }> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  const caKeys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const caName = 'CN=Bank API Sandbox Test CA, O=Bank API Sandbox, C=SE';
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: '0badcafe',
      subject: `CN=${organizationId}, 2.5.4.97=${organizationId}`,
      issuer: caName,
      notBefore: new Date('2000-01-01T00:00:00Z'),
      notAfter: new Date('2099-01-01T00:00:00Z'),
      signingAlgorithm: algorithm,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
    },
    webcrypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: certificate.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)?.join('\n')}\n-----END PRIVATE KEY-----\n` };
}

/** A self-signed certificate with a commonName and no organizationIdentifier: the TPP sha256:<its fingerprint> (contract §3). */
async function certificateWithoutOrganizationId(): Promise<Buffer> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    { serialNumber: '0a11', name: 'CN=No Organization Id', keys, notBefore: new Date('2000-01-01T00:00:00Z'), notAfter: new Date('2099-01-01T00:00:00Z'), signingAlgorithm: algorithm },
    webcrypto,
  );
  return Buffer.from(certificate.rawData);
}

/**
 * A client certificate whose organizationIdentifier is `organizationId`, signed with the sandbox CA's
 * own key (read from its table), as POST /sandbox/certificates would never issue it: what a leaked CA
 * key or an older issue could present.
 */
async function signedBySandboxCa(t: TestApp, organizationId: string): Promise<{ cert: string; key: string }> {
  const [stored] = await t.get(DataSource).query<Array<{ certificate_pem: string; private_key_pem: string }>>('SELECT certificate_pem, private_key_pem FROM sandbox_ca');
  const caAlgorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const caKey = await webcrypto.subtle.importKey('pkcs8', Buffer.from(stored.private_key_pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'), caAlgorithm, false, ['sign']);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: '0b0220',
      subject: `CN=Borrower, 2.5.4.97=${organizationId}`,
      issuer: new x509.X509Certificate(stored.certificate_pem).subjectName,
      notBefore: new Date('2000-01-01T00:00:00Z'),
      notAfter: new Date('2099-01-01T00:00:00Z'),
      signingAlgorithm: caAlgorithm,
      publicKey: keys.publicKey,
      signingKey: caKey,
    },
    webcrypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: certificate.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)?.join('\n')}\n-----END PRIVATE KEY-----\n` };
}
