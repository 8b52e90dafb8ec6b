import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueTestCertificate, PSD2_ROLES, type Psd2Role, reservedOrganizationIdProblem } from '@app/directory';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';

export interface CertOptions {
  roles: string;
  organizationId: string;
  pem?: boolean;
  out?: string;
  /** Strict mode (contract §16): a client certificate of the sandbox CA, written into this folder. */
  pemDir?: string;
  notBefore?: string;
  notAfter?: string;
}

/**
 * Mints a test certificate offline (contract §3), the same as GET /sandbox/test-certificate.
 * Prints Base64 of the DER: the value of the X-PSD2-CLIENT-TEST-CERT header.
 */
export async function certCommand(options: CertOptions & TransportOptions, io: CliIo): Promise<number> {
  const roles = options.roles.split(',').map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((role) => !(PSD2_ROLES as readonly string[]).includes(role));
  if (unknown.length > 0) {
    io.err(`Unknown role(s) ${unknown.join(', ')}; roles are a comma-separated list of ${PSD2_ROLES.join(', ')}.\n`);
    return 2;
  }
  const reserved = reservedOrganizationIdProblem(options.organizationId);
  if (reserved) {
    io.err(`--organization-id: ${reserved}.\n`);
    return 2;
  }
  if (options.pemDir) return strictCertificate(options, roles, options.pemDir, io);
  // Offline there is no sandbox clock; certificate dates are never validated by the sandbox.
  const issuedAt = new Date();
  const der = await issueTestCertificate({ roles: [...new Set(roles)] as Psd2Role[], organizationId: options.organizationId, now: issuedAt });
  const text = options.pem ? toPem(der) : `${der.toString('base64')}\n`;
  if (options.out) {
    writeFileSync(options.out, text);
    io.err(`Wrote ${options.pem ? 'PEM' : 'Base64 DER'} certificate for ${options.organizationId} [${roles.join(', ')}] to ${options.out}\n`);
  } else {
    io.out(text);
  }
  return 0;
}

/**
 * A strict-mode client certificate (contract §16), issued by the sandbox CA through the database of
 * the environment or a running service (--url, with the sandbox's admin key or the operator key,
 * which POST /sandbox/certificates needs), as POST /sandbox/certificates does: cert.pem,
 * key.pem, ca.pem and cert.p12 (its password in cert.p12.password) in `dir`, for curl --cert/--key/--cacert.
 */
function strictCertificate(options: CertOptions & TransportOptions, roles: string[], dir: string, io: CliIo): Promise<number> {
  return withAdminClient(options, io, async (client) => {
    const issued = await client.issueCertificate({
      organization_id: options.organizationId,
      roles,
      ...(options.notBefore ? { not_before: options.notBefore } : {}),
      ...(options.notAfter ? { not_after: options.notAfter } : {}),
    });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cert.pem'), issued.certificate_pem);
    writeFileSync(join(dir, 'key.pem'), issued.private_key_pem, { mode: 0o600 });
    writeFileSync(join(dir, 'ca.pem'), issued.ca_pem);
    writeFileSync(join(dir, 'cert.p12'), Buffer.from(issued.pkcs12_base64, 'base64'), { mode: 0o600 });
    writeFileSync(join(dir, 'cert.p12.password'), `${issued.pkcs12_password}\n`, { mode: 0o600 });
    io.err(`Wrote cert.pem, key.pem, ca.pem and cert.p12 (password in cert.p12.password) for ${options.organizationId} [${roles.join(', ')}] to ${dir}\n`);
    io.out(`${issued.serial}\n`);
    return 0;
  });
}

function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
