import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { readPsd2CertificateDer } from './psd2-certificate';
import { createSandboxCa, issueClientCertificate, issueServerCertificate, loadSandboxCa, signedBy } from './sandbox-ca';

describe('the sandbox CA (contract §16)', () => {
  const now = new Date('2026-11-24T09:00:00Z');
  let ca: Awaited<ReturnType<typeof loadSandboxCa>>;
  beforeAll(async () => {
    ca = await loadSandboxCa(await createSandboxCa());
  });

  it('is a CA certificate valid from 2000-01-01 to 2099-12-31, and its key PEM is PKCS#8', async () => {
    const pem = await createSandboxCa();
    const certificate = new X509Certificate(pem.certificatePem);
    expect({ ca: certificate.ca, from: new Date(certificate.validFrom).toISOString(), to: new Date(certificate.validTo).toISOString() }).toEqual({
      ca: true,
      from: '2000-01-01T00:00:00.000Z',
      to: '2099-12-31T23:59:59.000Z',
    });
    expect(pem.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('issues a client certificate with the QCStatement roles, the organizationIdentifier, clientAuth and the chosen dates, that it signed', async () => {
    const issued = await issueClientCertificate(ca, { organizationId: 'PSDSE-FINA-1', roles: ['PSP_PI'], commonName: 'TPP AB', notBefore: now, notAfter: new Date('2027-01-01T00:00:00Z') });
    const certificate = new X509Certificate(issued.certificatePem);
    expect(signedBy(ca, certificate)).toBe(true);
    expect(certificate.serialNumber).toBe(issued.serial);
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(new Date(certificate.validTo).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(readPsd2CertificateDer(certificate.raw)).toMatchObject({ organizationId: 'PSDSE-FINA-1', roles: ['PSP_PI'] });
    expect(() => createSecureContext({ pfx: issued.pkcs12, passphrase: issued.pkcs12Password })).not.toThrow();
  });

  it('does not take another CA\'s certificate for its own, even with the same subject', async () => {
    const other = await loadSandboxCa(await createSandboxCa());
    const foreign = await issueClientCertificate(other, { organizationId: 'PSDSE-FINA-2', roles: [], commonName: 'x', notBefore: now, notAfter: new Date('2027-01-01T00:00:00Z') });
    expect(signedBy(ca, new X509Certificate(foreign.certificatePem))).toBe(false);
    expect(signedBy(ca, new X509Certificate(other.certificatePem))).toBe(false);
  });

  it('issues the server certificate for the given names and addresses, valid a year from now (real time)', async () => {
    const issued = await issueServerCertificate(ca, ['localhost', '127.0.0.1', 'sandbox.example.com'], now);
    const certificate = new X509Certificate(issued.certificatePem);
    expect(signedBy(ca, certificate)).toBe(true);
    expect(certificate.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, DNS:sandbox.example.com');
    expect(certificate.checkHost('sandbox.example.com')).toBe('sandbox.example.com');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(certificate.validTo).getTime() - now.getTime()).toBe(365 * 24 * 60 * 60 * 1000);
  });
});
