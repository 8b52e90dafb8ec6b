// eIDAS/PSD2 test certificates (sandbox contract §3): reading the X-PSD2-CLIENT-TEST-CERT header
// and issuing self-signed test certificates with chosen PSD2 roles (ETSI TS 119 495).
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect polyfill loaded
// first; importing it here keeps this module usable outside Nest (the offline CLI, unit tests).
import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import { AsnArray, AsnParser, AsnProp, AsnPropTypes, AsnSerializer, AsnType, AsnTypeTypes } from '@peculiar/asn1-schema';
import * as x509 from '@peculiar/x509';
import { hasControlCharacter } from '@app/common';
import { FINGERPRINT_IDENTIFIER_PREFIX } from '../tpps/tpp';

export const PSD2_ROLES = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'] as const;
export type Psd2Role = (typeof PSD2_ROLES)[number];

export interface Psd2Certificate {
  /** The subject's organizationIdentifier (OID 2.5.4.97), e.g. PSDSE-FINA-44059; null without one. */
  organizationId: string | null;
  /** SHA-256 of the DER, lowercase hex. */
  fingerprint: string;
  /** The roles of the PSD2 QCStatement, in certificate order; [] without that statement. */
  roles: Psd2Role[];
}

export interface IssueTestCertificateOptions {
  roles: Psd2Role[];
  organizationId: string;
  now: Date;
}

/** The header value is not a certificate; the message says what was wrong (it reaches the caller). */
export class UnreadableCertificate extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnreadableCertificate';
  }
}

// ETSI TS 119 495 §5.1: role OIDs (id-psd2-role-*).
const ROLE_OIDS: Readonly<Record<Psd2Role, string>> = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
};
const ROLE_OF_OID: ReadonlyMap<string, Psd2Role> = new Map(PSD2_ROLES.map((role) => [ROLE_OIDS[role], role]));

const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3'; // RFC 3739 id-pe-qcStatements
const QC_COMPLIANCE_OID = '0.4.0.1862.1.1'; // ETSI EN 319 412-5 id-etsi-qcs-QcCompliance
const PSD2_STATEMENT_OID = '0.4.0.19495.2'; // ETSI TS 119 495 id-etsi-psd2-qcStatement
const ORGANIZATION_IDENTIFIER_OID = '2.5.4.97';

// The competent authority written into issued test certificates (Sweden).
const NCA_NAME = 'Finansinspektionen';
const NCA_ID = 'SE-FINA';

// RoleOfPSP ::= SEQUENCE { roleOfPspOid RoleOfPspOid, roleOfPspName RoleOfPspName }
class RoleOfPsp {
  @AsnProp({ type: AsnPropTypes.ObjectIdentifier })
  roleOfPspOid = '';

  @AsnProp({ type: AsnPropTypes.Utf8String })
  roleOfPspName = '';
}

// RolesOfPSP ::= SEQUENCE OF RoleOfPSP
@AsnType({ type: AsnTypeTypes.Sequence, itemType: RoleOfPsp })
class RolesOfPsp extends AsnArray<RoleOfPsp> {}

// PSD2QcType ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName NCAName, nCAId NCAId }
class Psd2QcType {
  @AsnProp({ type: RolesOfPsp })
  rolesOfPsp = new RolesOfPsp();

  @AsnProp({ type: AsnPropTypes.Utf8String })
  nCaName = '';

  @AsnProp({ type: AsnPropTypes.Utf8String })
  nCaId = '';
}

// QCStatement ::= SEQUENCE { statementId OID, statementInfo ANY DEFINED BY statementId OPTIONAL }
class QcStatement {
  @AsnProp({ type: AsnPropTypes.ObjectIdentifier })
  statementId = '';

  @AsnProp({ type: AsnPropTypes.Any, optional: true })
  statementInfo?: ArrayBuffer;
}

// QCStatements ::= SEQUENCE OF QCStatement
@AsnType({ type: AsnTypeTypes.Sequence, itemType: QcStatement })
class QcStatements extends AsnArray<QcStatement> {}

/**
 * Reads the X-PSD2-CLIENT-TEST-CERT header: Base64 of a DER certificate, or Base64 of a PEM text.
 * Synchronous, since it runs on every request. Neither dates nor chain are checked (sandbox).
 */
export function readPsd2Certificate(headerValue: string): Psd2Certificate {
  return readPsd2CertificateDer(certificateDer(decodeBase64(headerValue.trim(), 'The certificate')));
}

/** The same reading of a PEM text (an answer's certificate_pem): its first CERTIFICATE block. */
export function readPsd2CertificatePem(text: string): Psd2Certificate {
  const begin = text.indexOf('-----BEGIN');
  if (begin < 0) throw new UnreadableCertificate('The text holds no PEM block');
  // From its first PEM line: text before it (even a "0") is not read as DER.
  return readPsd2CertificateDer(certificateDer(Buffer.from(text.slice(begin), 'latin1')));
}

/** The same reading of a DER certificate (a TLS peer's, contract §16). */
export function readPsd2CertificateDer(der: Buffer): Psd2Certificate {
  const certificate = parseCertificate(der);
  return {
    organizationId: organizationIdOf(certificate),
    fingerprint: createHash('sha256').update(der).digest('hex'),
    roles: rolesOf(certificate),
  };
}

/** DER of a self-signed test certificate holding exactly `roles` in its PSD2 QCStatement. */
export async function issueTestCertificate(o: IssueTestCertificateOptions): Promise<Buffer> {
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      name: testCertificateName(o.organizationId),
      keys: await testCertificateKeys(),
      // No serialNumber: the generator draws 16 random bytes and keeps the INTEGER positive.
      notBefore: addUtcDays(o.now, -1), // a day of slack for callers whose clock runs behind
      notAfter: addUtcYears(o.now, 20), // long validity: a test certificate should never expire in use
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [qcStatementsExtension(o.roles)],
    },
    // Passed explicitly rather than through x509.cryptoProvider.set(): no process-wide state to mutate.
    webcrypto,
  );
  return Buffer.from(certificate.rawData);
}

// One key pair per process, made on first use: every test certificate is signed by it, so issuing
// costs one signature. The promise is cached so concurrent first calls share one key generation.
let keyPair: Promise<webcrypto.CryptoKeyPair> | undefined;
function testCertificateKeys(): Promise<webcrypto.CryptoKeyPair> {
  keyPair ??= webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  return keyPair;
}

export function testCertificateName(organizationId: string, commonName = organizationId): x509.Name {
  // String types are spelled out: given a plain string, @peculiar/x509 picks PrintableString
  // whenever the text allows it, but organizationIdentifier is UTF8String in practice (openssl,
  // the QTSPs), and DirectoryStrings should be UTF8String (RFC 5280); countryName is PrintableString.
  return new x509.Name([
    { C: [{ printableString: 'SE' }] },
    { O: [{ utf8String: 'Sandbox Test TPP' }] },
    { [ORGANIZATION_IDENTIFIER_OID]: [{ utf8String: organizationId }] },
    { CN: [{ utf8String: commonName }] },
  ]);
}

export function qcStatementsExtension(roles: readonly Psd2Role[]): x509.Extension {
  return new x509.Extension(QC_STATEMENTS_OID, false, qcStatementsDer(roles));
}

/** The qcStatements extension's value: QcCompliance and the PSD2 statement with exactly `roles`. */
function qcStatementsDer(roles: readonly Psd2Role[]): ArrayBuffer {
  const psd2QcType = new Psd2QcType();
  psd2QcType.rolesOfPsp = new RolesOfPsp(roles.map((role) => Object.assign(new RoleOfPsp(), { roleOfPspOid: ROLE_OIDS[role], roleOfPspName: role })));
  psd2QcType.nCaName = NCA_NAME;
  psd2QcType.nCaId = NCA_ID;
  return AsnSerializer.serialize(
    new QcStatements([
      Object.assign(new QcStatement(), { statementId: QC_COMPLIANCE_OID }),
      Object.assign(new QcStatement(), { statementId: PSD2_STATEMENT_OID, statementInfo: AsnSerializer.serialize(psd2QcType) }),
    ]),
  );
}

// Base64 with or without padding; Buffer.from(…, 'base64') alone would silently skip bad characters.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

function decodeBase64(text: string, what: string): Buffer {
  if (text === '') {
    throw new UnreadableCertificate(`${what} is empty; expected Base64 of a DER or PEM X.509 certificate`);
  }
  if (!BASE64.test(text)) {
    throw new UnreadableCertificate(`${what} is not Base64; expected Base64 of a DER or PEM X.509 certificate`);
  }
  return Buffer.from(text, 'base64');
}

const DER_SEQUENCE = 0x30;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/;
const PEM_LABEL = /-----BEGIN ([^-]*)-----/;

/** The DER inside the decoded header: the bytes themselves, or the first certificate of a PEM text. */
function certificateDer(bytes: Buffer): Buffer {
  // A DER certificate starts with a SEQUENCE tag; anything else is taken for PEM text.
  if (bytes[0] === DER_SEQUENCE) {
    return bytes;
  }
  const text = bytes.toString('latin1');
  const pem = PEM_CERTIFICATE.exec(text);
  if (pem) {
    const der = decodeBase64(pem[1].replace(/\s+/g, ''), 'The body of the PEM certificate');
    // Checked here because, given bytes that are not a SEQUENCE, X509Certificate would go on to
    // guess at hex, Base64 or PEM text.
    if (der[0] !== DER_SEQUENCE) {
      throw new UnreadableCertificate('The PEM certificate does not hold a DER X.509 certificate');
    }
    return der;
  }
  const label = PEM_LABEL.exec(text);
  if (label) {
    throw new UnreadableCertificate(`The PEM text holds a ${label[1]}, not a CERTIFICATE`);
  }
  throw new UnreadableCertificate('The Base64 decodes to neither a DER X.509 certificate nor a PEM text');
}

function parseCertificate(der: Buffer): x509.X509Certificate {
  // The parser ignores bytes after the certificate; refused, or appending bytes would make one
  // certificate have many fingerprints.
  if (derLength(der) !== der.length) {
    throw new UnreadableCertificate('The bytes are not exactly one DER X.509 certificate');
  }
  try {
    const certificate = new x509.X509Certificate(der);
    void certificate.subjectName; // parsed lazily; forced here so a broken name fails as unreadable
    return certificate;
  } catch (error) {
    throw new UnreadableCertificate('The bytes are not a DER X.509 certificate', { cause: error });
  }
}

/** Total length of the DER element at the start of `der` (tag, length, contents); null if unreadable. */
function derLength(der: Uint8Array): number | null {
  if (der.length < 2) {
    return null;
  }
  const first = der[1];
  if (first < 0x80) {
    return 2 + first;
  }
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || der.length < 2 + octets) {
    return null;
  }
  let length = 0;
  for (let i = 0; i < octets; i++) {
    length = length * 256 + der[2 + i];
  }
  return 2 + octets + length;
}

function organizationIdOf(certificate: x509.X509Certificate): string | null {
  const organizationId = certificate.subjectName.getField(ORGANIZATION_IDENTIFIER_OID)[0] || null;
  // Contract §2 text rule: the identifier names the TPP in the database (PostgreSQL refuses U+0000).
  if (organizationId !== null && hasControlCharacter(organizationId)) {
    throw new UnreadableCertificate('The certificate\'s organizationIdentifier contains control characters');
  }
  // Contract §16: that form names the TPP of a certificate without one; no certificate may borrow it.
  if (organizationId?.startsWith(FINGERPRINT_IDENTIFIER_PREFIX)) {
    throw new UnreadableCertificate(`The certificate's organizationIdentifier begins with ${FINGERPRINT_IDENTIFIER_PREFIX}, the form that names the TPP of a certificate without one (contract §3, §16)`);
  }
  return organizationId;
}

function rolesOf(certificate: x509.X509Certificate): Psd2Role[] {
  let psd2QcType: Psd2QcType | undefined;
  try {
    const extension = certificate.getExtension(QC_STATEMENTS_OID);
    if (!extension) {
      return [];
    }
    const statements = AsnParser.parse(extension.value, QcStatements);
    const info = statements.find((statement) => statement.statementId === PSD2_STATEMENT_OID)?.statementInfo;
    psd2QcType = info && AsnParser.parse(info, Psd2QcType);
  } catch (error) {
    throw new UnreadableCertificate('The certificate has a malformed qcStatements extension', { cause: error });
  }
  // Unknown role OIDs are skipped (a later ETSI role is not ours to grant); duplicates count once.
  const roles = new Set<Psd2Role>();
  for (const role of psd2QcType?.rolesOfPsp ?? []) {
    const known = ROLE_OF_OID.get(role.roleOfPspOid);
    if (known) {
      roles.add(known);
    }
  }
  return [...roles];
}

function addUtcDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 60 * 60 * 1000);
}

function addUtcYears(date: Date, years: number): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}
