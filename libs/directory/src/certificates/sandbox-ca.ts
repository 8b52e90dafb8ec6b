// The sandbox CA of strict mode (contract §16): making the CA, issuing QWAC-style client certificates
// and the TLS server certificate, and checking a client certificate's signature. Pure: the keys and
// certificates come in and go out as PEM; SandboxCertificateAuthority keeps them.
import 'reflect-metadata';
import { generateKeyPair, randomBytes, webcrypto, X509Certificate as NodeX509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import * as x509 from '@peculiar/x509';
import forge from 'node-forge';
import type { InstantRange } from '@app/common';
import { type Psd2Role, qcStatementsExtension, testCertificateName } from './psd2-certificate';

const generateKeyPairAsync = promisify(generateKeyPair);

// RSA rather than ECDSA: node-forge, which writes the PKCS#12, reads RSA certificates only, and
// re-encodes the ones it reads (an ECDSA signature would come out with a wrong AlgorithmIdentifier).
const CA_ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) } as const;
const SERVER_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const CA_NAME = 'CN=Bank API Sandbox Test CA, O=Bank API Sandbox, C=SE';
// Contract §16: chains hold at any sandbox clock.
const CA_NOT_BEFORE = new Date('2000-01-01T00:00:00Z');
const CA_NOT_AFTER = new Date('2099-12-31T23:59:59Z');

/** The CA as the database keeps it. */
export interface SandboxCaPem {
  certificatePem: string;
  privateKeyPem: string;
}

/** The CA ready to sign and to check signatures. */
export interface SandboxCa {
  certificatePem: string;
  certificate: x509.X509Certificate;
  signingKey: webcrypto.CryptoKey;
  /** Node's view of the CA certificate, for verifying client certificates. */
  verifier: NodeX509Certificate;
}

/**
 * The validity a certificate can state (RFC 5280 §4.1.2.5: UTCTime for 1950–2049, GeneralizedTime
 * for 2050–9999). @peculiar/x509 writes every year before 2050 as UTCTime, so 1949 came out as 2049:
 * an instant before 1950 is refused rather than issued wrong.
 */
export const CERTIFICATE_VALIDITY_RANGE: InstantRange = {
  earliest: new Date('1950-01-01T00:00:00Z'),
  latest: new Date('9999-12-31T23:59:59.999Z'),
  what: 'the validity a certificate can state (RFC 5280)',
};

export interface ClientCertificateRequest {
  organizationId: string;
  roles: readonly Psd2Role[];
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

export interface IssuedClientCertificate {
  /** Uppercase hex, as openssl and Node print it. */
  serial: string;
  certificatePem: string;
  privateKeyPem: string;
  pkcs12: Buffer;
  pkcs12Password: string;
}

export interface IssuedServerCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

/** A new CA: RSA 2048, valid 2000-01-01 to 2099-12-31 (contract §16). */
export async function createSandboxCa(): Promise<SandboxCaPem> {
  const keys = await webcrypto.subtle.generateKey(CA_ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomSerial(),
      name: CA_NAME,
      keys,
      notBefore: CA_NOT_BEFORE,
      notAfter: CA_NOT_AFTER,
      signingAlgorithm: CA_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, webcrypto),
      ],
    },
    webcrypto,
  );
  return { certificatePem: pemOf(certificate), privateKeyPem: pkcs8Pem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}

export async function loadSandboxCa(pem: SandboxCaPem): Promise<SandboxCa> {
  const signingKey = await webcrypto.subtle.importKey('pkcs8', pemBody(pem.privateKeyPem), { name: CA_ALGORITHM.name, hash: CA_ALGORITHM.hash }, false, ['sign']);
  return {
    certificatePem: pem.certificatePem,
    certificate: new x509.X509Certificate(pem.certificatePem),
    signingKey,
    verifier: new NodeX509Certificate(pem.certificatePem),
  };
}

/**
 * A QWAC-style client certificate (RSA 2048, so every TLS client and PKCS#12 reader takes it): the
 * organizationIdentifier in the subject, the ETSI TS 119 495 roles in its QCStatement (contract §3),
 * clientAuth, signed by the CA; with its key as PEM and both as PKCS#12 under a random password.
 */
export async function issueClientCertificate(ca: SandboxCa, request: ClientCertificateRequest): Promise<IssuedClientCertificate> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
  const serialNumber = randomSerial();
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber,
      subject: testCertificateName(request.organizationId, request.commonName),
      issuer: ca.certificate.subjectName,
      notBefore: request.notBefore,
      notAfter: request.notAfter,
      signingAlgorithm: CA_ALGORITHM,
      publicKey: publicKey.export({ type: 'spki', format: 'der' }),
      signingKey: ca.signingKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
        await x509.AuthorityKeyIdentifierExtension.create(ca.certificate, false, webcrypto),
        qcStatementsExtension(request.roles),
      ],
    },
    webcrypto,
  );
  const certificatePem = pemOf(certificate);
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const pkcs12Password = randomBytes(12).toString('base64url');
  return { serial: serialNumber.toUpperCase(), certificatePem, privateKeyPem, pkcs12: toPkcs12(certificatePem, privateKeyPem, ca.certificatePem, pkcs12Password), pkcs12Password };
}

/** The TLS server certificate for `hostnames` (names or IP addresses), valid a year from `now` (real time, contract §16). */
export async function issueServerCertificate(ca: SandboxCa, hostnames: readonly string[], now: Date): Promise<IssuedServerCertificate> {
  const keys = await webcrypto.subtle.generateKey(SERVER_KEY_ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject: `CN=${hostnames[0]}`,
      issuer: ca.certificate.subjectName,
      notBefore: new Date(now.getTime() - 60 * 60 * 1000),
      notAfter: new Date(now.getTime() + 365 * 24 * 60 * 60 * 1000),
      signingAlgorithm: CA_ALGORITHM,
      publicKey: keys.publicKey,
      signingKey: ca.signingKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(hostnames.map((name) => (isIpAddress(name) ? { type: 'ip', value: name } : { type: 'dns', value: name }))),
      ],
    },
    webcrypto,
  );
  return { certificatePem: pemOf(certificate), privateKeyPem: pkcs8Pem(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}

/** Whether the CA signed `certificate` (issuer name and signature). */
export function signedBy(ca: SandboxCa, certificate: NodeX509Certificate): boolean {
  try {
    return certificate.checkIssued(ca.verifier) && certificate.verify(ca.verifier.publicKey);
  } catch {
    return false;
  }
}

/**
 * PKCS#12 through node-forge (the format's encryption and MAC are not ours to hand-write): the key
 * encrypted with 3DES and the SHA-1 MAC, the combination every TLS client, browser and keychain
 * still reads. The certificate, its key and the CA certificate.
 */
function toPkcs12(certificatePem: string, privateKeyPem: string, caPem: string, password: string): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(
    forge.pki.privateKeyFromPem(privateKeyPem),
    [forge.pki.certificateFromPem(certificatePem), forge.pki.certificateFromPem(caPem)],
    password,
    { algorithm: '3des', friendlyName: 'sandbox client certificate' },
  );
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/** 16 random bytes, the first below 0x80 so the INTEGER stays positive; lowercase hex. */
function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x10;
  return bytes.toString('hex');
}

/** PEM ending in a newline, as files and curl expect. */
function pemOf(certificate: x509.X509Certificate): string {
  return `${certificate.toString('pem').trimEnd()}\n`;
}

function pkcs8Pem(der: ArrayBuffer): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

function isIpAddress(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(':');
}
