import { execFileSync } from 'node:child_process';
import { X509Certificate as NodeX509Certificate, createHash, generateKeyPairSync, randomBytes, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import { issueTestCertificate, readPsd2Certificate, readPsd2CertificatePem, UnreadableCertificate } from './psd2-certificate';
import type { Psd2Role } from './psd2-certificate';

const NOW = new Date('2026-03-01T10:00:00Z');
const ORGANIZATION_ID = 'PSDSE-FINA-12345';
const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3';

// Made by the openssl CLI (test/fixtures/certificates/make-fixtures.sh), independent of our encoder.
const fixturePem = (name: string): string => readFileSync(join(process.cwd(), 'test/fixtures/certificates', name), 'latin1');
const OPENSSL_AI_PI = fixturePem('openssl-psd2-ai-pi.pem');
const OPENSSL_NO_QC = fixturePem('openssl-no-qcstatement.pem');

const base64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const toPem = (der: Buffer): string =>
  `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
const pemToDer = (pem: string): Buffer => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
const qcStatementsOf = (der: Uint8Array): Buffer => Buffer.from(new x509.X509Certificate(der).getExtension(QC_STATEMENTS_OID)!.value);

/** A self-signed certificate whose qcStatements extension holds exactly `value` (for malformed cases). */
async function certificateWithQcStatements(value: Uint8Array): Promise<Buffer> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    { name: 'CN=Crafted', keys, extensions: [new x509.Extension(QC_STATEMENTS_OID, false, value)] },
    webcrypto,
  );
  return Buffer.from(certificate.rawData);
}

describe('issueTestCertificate and readPsd2Certificate', () => {
  it.each<[Psd2Role[]]>([[['PSP_AI', 'PSP_PI']], [['PSP_AI']], [[]]])('reads back exactly the issued roles %j', async (roles) => {
    const der = await issueTestCertificate({ roles, organizationId: ORGANIZATION_ID, now: NOW });

    const read = readPsd2Certificate(base64(der));

    expect(read).toEqual({ organizationId: ORGANIZATION_ID, fingerprint: sha256(der), roles });
    expect(read.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts Base64 of the PEM text with the same result as Base64 of the DER, whitespace around too', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_PI'], organizationId: ORGANIZATION_ID, now: NOW });

    const fromDer = readPsd2Certificate(base64(der));

    expect(readPsd2Certificate(base64(toPem(der)))).toEqual(fromDer);
    expect(readPsd2Certificate(` \t${base64(der)}\n`)).toEqual(fromDer);
  });

  it('readPsd2CertificatePem reads a PEM text (an answer\'s certificate_pem) as the header\'s Base64 of the same certificate, text before it too', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_AI'], organizationId: ORGANIZATION_ID, now: NOW });
    const fromHeader = readPsd2Certificate(base64(der));

    expect(readPsd2CertificatePem(toPem(der))).toEqual(fromHeader);
    expect(readPsd2CertificatePem(`0 subject=${ORGANIZATION_ID}\n${toPem(der)}`)).toEqual(fromHeader);
    expect(() => readPsd2CertificatePem('no PEM here')).toThrow(UnreadableCertificate);
  });

  it('issues a self-signed ECDSA P-256 certificate valid from a day before now for 20 years', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_AI'], organizationId: ORGANIZATION_ID, now: NOW });
    const certificate = new NodeX509Certificate(der); // Node's own parser (OpenSSL), not @peculiar/x509

    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.subject).toBe(certificate.issuer);
    expect(certificate.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(new Date(certificate.validFrom)).toEqual(new Date('2026-02-28T10:00:00Z'));
    expect(new Date(certificate.validTo)).toEqual(new Date('2046-03-01T10:00:00Z'));
  });

  it('signs every certificate with the one cached key pair, under a fresh random positive serial', async () => {
    const ders = [
      await issueTestCertificate({ roles: [], organizationId: ORGANIZATION_ID, now: NOW }),
      await issueTestCertificate({ roles: [], organizationId: ORGANIZATION_ID, now: NOW }),
    ];
    const [first, second] = ders.map((der) => new NodeX509Certificate(der));

    expect(second.publicKey.equals(first.publicKey)).toBe(true);
    expect(second.serialNumber).not.toBe(first.serialNumber);
    for (const der of ders) {
      // Node shows the serial's magnitude only, so the sign bit is read from the DER INTEGER itself.
      const serial = new Uint8Array(AsnConvert.parse(der, Certificate).tbsCertificate.serialNumber);
      expect(serial[0]).toBeLessThan(0x80);
      expect(serial.some((octet) => octet !== 0)).toBe(true);
    }
  });

  it('is parsed by the openssl CLI, which shows the subject, organizationIdentifier as UTF8String and the qcStatements', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_AI', 'PSP_PI'], organizationId: ORGANIZATION_ID, now: NOW });

    const text = execFileSync('openssl', ['x509', '-inform', 'DER', '-noout', '-text', '-nameopt', 'multiline,show_type'], {
      input: der,
      encoding: 'utf8',
    });

    expect(text).toContain('Signature Algorithm: ecdsa-with-SHA256');
    expect(text).toMatch(/countryName\s+= PRINTABLESTRING:SE\n/);
    expect(text).toMatch(/organizationName\s+= UTF8STRING:Sandbox Test TPP\n/);
    expect(text).toMatch(/organizationIdentifier\s+= UTF8STRING:PSDSE-FINA-12345\n/);
    expect(text).toMatch(/commonName\s+= UTF8STRING:PSDSE-FINA-12345\n/);
    expect(text).toContain('qcStatements');
  });

  it('refuses an organizationIdentifier with control characters as unreadable (contract §2: no U+0000–U+001F, U+007F in text)', async () => {
    for (const organizationId of ['PSDSE-\u0000-1', 'PSDSE-\t-1', 'PSDSE-\u007f-1']) {
      const der = await issueTestCertificate({ roles: ['PSP_AI'], organizationId, now: NOW });
      expect(() => readPsd2Certificate(der.toString('base64'))).toThrow(UnreadableCertificate);
    }
  });

  it('refuses an organizationIdentifier beginning with sha256:, the name of a TPP whose certificate has none, as unreadable (contract §16)', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_AI'], organizationId: `sha256:${'ab'.repeat(32)}`, now: NOW });
    expect(() => readPsd2Certificate(base64(der))).toThrow(UnreadableCertificate);
    expect(() => readPsd2Certificate(base64(der))).toThrow(/begins with sha256:/);
    // Only that form: the same text elsewhere in the identifier names an organization as any other.
    const elsewhere = await issueTestCertificate({ roles: ['PSP_AI'], organizationId: 'PSDSE-sha256:1', now: NOW });
    expect(readPsd2Certificate(base64(elsewhere)).organizationId).toBe('PSDSE-sha256:1');
  });

  it('encodes the qcStatements byte for byte as the openssl fixture written from the ETSI ASN.1', async () => {
    const der = await issueTestCertificate({ roles: ['PSP_AI', 'PSP_PI'], organizationId: ORGANIZATION_ID, now: NOW });

    expect(qcStatementsOf(der).toString('hex')).toBe(qcStatementsOf(pemToDer(OPENSSL_AI_PI)).toString('hex'));
  });
});

describe('readPsd2Certificate on certificates made by openssl', () => {
  it('reads the roles and organizationIdentifier of the PSD2 fixture, from PEM and from DER alike', () => {
    const der = pemToDer(OPENSSL_AI_PI);

    const read = readPsd2Certificate(base64(OPENSSL_AI_PI));

    expect(read).toEqual({ organizationId: 'PSDSE-FINA-44059', fingerprint: sha256(der), roles: ['PSP_AI', 'PSP_PI'] });
    expect(readPsd2Certificate(base64(der))).toEqual(read);
  });

  it('gives no roles, and no error, for a certificate without qcStatements', () => {
    const der = pemToDer(OPENSSL_NO_QC);

    expect(readPsd2Certificate(base64(OPENSSL_NO_QC))).toEqual({
      organizationId: 'PSDSE-FINA-77777',
      fingerprint: sha256(der),
      roles: [],
    });
  });

  it('gives no organizationId for a certificate without organizationIdentifier', async () => {
    const der = await certificateWithQcStatements(qcStatementsOf(pemToDer(OPENSSL_AI_PI)));

    expect(readPsd2Certificate(base64(der))).toMatchObject({ organizationId: null, roles: ['PSP_AI', 'PSP_PI'] });
  });

  it('ignores role OIDs it does not know', async () => {
    // The fixture's PSP_AI OID 0.4.0.19495.1.3 turned into the unknown 0.4.0.19495.1.9.
    const statements = qcStatementsOf(pemToDer(OPENSSL_AI_PI));
    const aiOid = Buffer.from('0607040081982701' + '03', 'hex');
    const at = statements.indexOf(aiOid);
    expect(at).toBeGreaterThan(0);
    statements[at + aiOid.length - 1] = 0x09;

    expect(readPsd2Certificate(base64(await certificateWithQcStatements(statements))).roles).toEqual(['PSP_PI']);
  });
});

describe('readPsd2Certificate refuses what is not a certificate', () => {
  const ecPrivateKeyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });

  it.each([
    ['an empty value', '', /empty/],
    ['only whitespace', '  \t ', /empty/],
    ['text that is not Base64', 'not base64!!', /not Base64/],
    ['Base64 with a character from outside the alphabet', 'MIIB$AAA', /not Base64/],
    ['Base64 of random bytes', base64(Buffer.concat([Buffer.from([0x7a]), randomBytes(200)])), /neither a DER/],
    ['Base64 of random bytes after a SEQUENCE tag', base64(Buffer.concat([Buffer.from([0x30]), randomBytes(200)])), /DER X\.509 certificate/],
    ['Base64 of DER that is not a certificate', base64(Buffer.from('3003020105', 'hex')), /not a DER X\.509 certificate/],
    ['Base64 of a PEM private key', base64(ecPrivateKeyPem), /PRIVATE KEY, not a CERTIFICATE/],
    ['Base64 of a PEM certificate with a garbage body', base64('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n'), /PEM certificate/],
    ['Base64 of a truncated certificate', base64(pemToDer(OPENSSL_AI_PI).subarray(0, 300)), /DER X\.509 certificate/],
    ['Base64 of a certificate followed by more bytes', base64(Buffer.concat([pemToDer(OPENSSL_AI_PI), Buffer.from([0])])), /exactly one DER/],
  ])('%s', (_case, headerValue, message) => {
    expect(() => readPsd2Certificate(headerValue)).toThrow(UnreadableCertificate);
    expect(() => readPsd2Certificate(headerValue)).toThrow(message);
  });

  it('refuses a certificate whose qcStatements extension is malformed', async () => {
    const der = await certificateWithQcStatements(Buffer.from('300a0603', 'hex'));

    expect(() => readPsd2Certificate(base64(der))).toThrow(UnreadableCertificate);
    expect(() => readPsd2Certificate(base64(der))).toThrow(/malformed qcStatements/);
  });
});
