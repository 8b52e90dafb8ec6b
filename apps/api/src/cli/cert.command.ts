import { writeFileSync } from 'node:fs';
import { issueTestCertificate, PSD2_ROLES, type Psd2Role } from '@app/directory';
import type { CliIo } from './cli-io';

export interface CertOptions {
  roles: string;
  organizationId: string;
  pem?: boolean;
  out?: string;
}

/**
 * Mints a test certificate offline (contract §3), the same as GET /sandbox/test-certificate.
 * Prints Base64 of the DER: the value of the X-PSD2-CLIENT-TEST-CERT header.
 */
export async function certCommand(options: CertOptions, io: CliIo): Promise<number> {
  const roles = options.roles.split(',').map((r) => r.trim()).filter(Boolean);
  const unknown = roles.filter((role) => !(PSD2_ROLES as readonly string[]).includes(role));
  if (unknown.length > 0) {
    io.err(`Unknown role(s) ${unknown.join(', ')}; roles are a comma-separated list of ${PSD2_ROLES.join(', ')}.\n`);
    return 2;
  }
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

function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
