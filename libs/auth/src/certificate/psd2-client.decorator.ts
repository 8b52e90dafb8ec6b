import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { Access, principalOf } from '@app/common';
import { DocumentPsuIpAddress, PsuIpAddressGuard, PsuIpAddressRequired } from '../psu-ip-address';
import { PSD2_CERTIFICATE_STRATEGY } from './psd2-certificate.strategy';
import type { Psd2Client } from './psd2-client';

export const CERTIFICATE_HEADER_DOC = {
  name: 'X-PSD2-CLIENT-TEST-CERT',
  required: true,
  description: 'Base64 of the TPP\'s test certificate (DER, or PEM text); GET /sandbox/test-certificate mints one. On the strict-mode TLS port the client certificate of the handshake replaces it; sent there, it must be that same certificate (contract §16)',
};

/**
 * Routes called by a TPP with its test certificate (contract §3); 401 without a readable one. These
 * are the authentication-flow calls of bank §4.1, where PSU-IP-Address is required (contract §2).
 */
export const Psd2Certificate = () =>
  applyDecorators(
    Access({ strategy: PSD2_CERTIFICATE_STRATEGY }),
    PsuIpAddressRequired('every-call'),
    UseGuards(PsuIpAddressGuard),
    ApiHeader(CERTIFICATE_HEADER_DOC),
    DocumentPsuIpAddress(),
  );

/** The TPP the guard identified. */
export const CurrentPsd2Client = createParamDecorator(
  (_: unknown, context: ExecutionContext): Psd2Client => principalOf(context, 'psd2-client').client,
);
