import { Body, Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, Public } from '@app/common';
import { IssueCertificateDto, IssuedCertificateDto } from './sandbox-certificates.dto';
import { SandboxCertificatesService } from './sandbox-certificates.service';
import { SERIAL_PATTERN, SerialPipe } from './serial.pipe';

/** Strict mode's sandbox CA (contract §16): its certificate and the client certificates it issues. */
@ApiInterface(API_TAG.sandbox)
@Controller('sandbox')
export class SandboxCertificatesController {
  constructor(private readonly certificates: SandboxCertificatesService) {}

  @Get('ca.pem')
  @Public()
  @Header('Content-Type', 'application/x-pem-file')
  @ApiOperation({
    summary: 'The sandbox CA certificate (strict mode)',
    description: 'PEM. Trust it for the TLS port\'s server certificate (curl --cacert); it signs every client certificate of POST /sandbox/certificates (contract §16).',
  })
  @ApiProduces('application/x-pem-file')
  @ApiOkResponse({ description: 'The CA certificate, PEM', content: { 'application/x-pem-file': { schema: { type: 'string' } } } })
  caPem(): Promise<string> {
    return this.certificates.caPem();
  }

  @Post('certificates')
  // Only the owner of a sandbox hands out identities in it, as a trust service checks an applicant
  // before it issues a QWAC (contract §16): the sandbox's admin key or the operator key, as /admin/*.
  @AdminOnly()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Issue a client certificate for strict mode',
    description:
      'A QWAC-style client certificate signed by the sandbox CA: the organizationIdentifier in its subject, the PSD2 roles in its ETSI TS 119 495 QCStatement, ' +
      'valid by default from the sandbox clock\'s now minus one hour to a year after it. As PEM (certificate and key) and PKCS#12 (contract §16). ' +
      'Needs Authorization: Bearer <the sandbox\'s admin_key or the operator key ADMIN_API_KEY>, as /admin/* (at the root: the operator key). ' +
      'Tokens obtained with it on the TLS port are bound to it (RFC 8705). ' +
      'Offline: `npm run cli -- cert --pem-dir DIR`.',
  })
  @ApiCreatedResponse({ type: IssuedCertificateDto })
  @ApiProblems(
    {
      status: 400,
      description:
        'A malformed organization_id or one beginning with sha256:, an unknown role, an instant that is not an ISO 8601 date-time with an offset or Z or is outside 1950–9999 (what a certificate can state; a default too, by the sandbox clock), or not_after not after not_before (VALIDATION_FAILED names the field)',
    },
    { status: 401, description: 'No Authorization: Bearer <key>, or a wrong key: the sandbox\'s admin_key or the operator key (ADMIN_API_KEY) issues' },
    { status: 403, description: 'At the root (the default sandbox): the service was started without ADMIN_API_KEY, so no key issues there' },
    413,
  )
  issue(@Body() dto: IssueCertificateDto): Promise<IssuedCertificateDto> {
    return this.certificates.issue(dto);
  }
}

/** Revocation of a sandbox-CA certificate, per sandbox (contract §16). */
@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/certificates')
export class AdminCertificatesController {
  constructor(private readonly certificates: SandboxCertificatesService) {}

  @Post(':serial/revoke')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a client certificate in this sandbox',
    description:
      'On the TLS port the certificate is then 401 CERTIFICATE_INVALID in this sandbox, and so are the tokens bound to it (revocation is per sandbox; other instances see it within a second; contract §16). ' +
      'Again is fine; a reset of the sandbox clears its revocations.',
  })
  @ApiParam({ name: 'serial', description: 'The serial POST /sandbox/certificates answered (hex)', schema: { type: 'string', pattern: SERIAL_PATTERN.source } })
  @ApiNoContentResponse({ description: 'Revoked (or already revoked)' })
  @ApiProblems({ status: 400, description: 'serial is not hex' }, { status: 404, description: 'The sandbox CA issued no certificate with this serial' })
  async revoke(@Param('serial', SerialPipe) serial: string): Promise<void> {
    await this.certificates.revoke(serial);
  }
}
