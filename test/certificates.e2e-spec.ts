import { X509Certificate } from 'node:crypto';
import { readPsd2Certificate } from '@app/directory';
import { expectValidationFailed } from './support/problems';
import { createTestApp, TestApp } from './support/test-app';

describe('GET /sandbox/test-certificate (contract §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const mint = (query: Record<string, string>) => t.http.get('/sandbox/test-certificate').query(query);

  it('needs no credentials and answers Base64 of a DER X.509 certificate (contract §3)', async () => {
    const res = await mint({ roles: 'PSP_AI,PSP_PI', organization_id: 'PSDSE-FINA-12345' }).expect(200);
    expect(res.body.certificate).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const certificate = new X509Certificate(Buffer.from(res.body.certificate, 'base64'));
    expect(certificate.subject).toContain('PSDSE-FINA-12345');
  });

  it.each([
    ['PSP_AI,PSP_PI', ['PSP_AI', 'PSP_PI']],
    ['PSP_AI', ['PSP_AI']],
    ['PSP_PI', ['PSP_PI']],
    ['', []],
  ])('roles=%p gives a QCStatement (0.4.0.19495.2) with exactly %p and the organizationIdentifier (contract §3)', async (roles, expected) => {
    const res = await mint({ roles, organization_id: 'PSDSE-FINA-54321' }).expect(200);
    const read = readPsd2Certificate(res.body.certificate);
    expect([...read.roles].sort()).toEqual(expected);
    expect(read.organizationId).toBe('PSDSE-FINA-54321');
    expect(res.body).toMatchObject({ organization_id: 'PSDSE-FINA-54321', roles: expected });
  });

  it('makes up a random organizationIdentifier when none is asked for', async () => {
    const a = await mint({ roles: 'PSP_AI' }).expect(200);
    const b = await mint({ roles: 'PSP_AI' }).expect(200);
    expect(a.body.organization_id).toMatch(/^PSDSE-SANDBOX-\d{8}$/);
    expect(readPsd2Certificate(a.body.certificate).organizationId).toBe(a.body.organization_id);
    expect(a.body.organization_id).not.toBe(b.body.organization_id);
  });

  it('issues certificates of long validity (contract §3)', async () => {
    const res = await mint({ roles: 'PSP_AI', organization_id: 'PSDSE-FINA-1' }).expect(200);
    const certificate = new X509Certificate(Buffer.from(res.body.certificate, 'base64'));
    expect(Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)).toBeGreaterThan(10 * 365 * 86400e3);
  });

  it('refuses an unknown role with 400 naming roles (contract §3, §2)', async () => {
    expectValidationFailed(await mint({ roles: 'PSP_XX', organization_id: 'PSDSE-FINA-1' }), 'roles');
    expectValidationFailed(await mint({ roles: 'PSP_AI,AIS' }), 'roles');
  });

  it('refuses an organization_id with spaces or symbols with 400 naming it', async () => {
    expectValidationFailed(await mint({ roles: 'PSP_AI', organization_id: 'PSD SE!' }), 'organization_id');
  });
});
