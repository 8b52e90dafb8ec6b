import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { OAuthErrorDto } from './token.dto';

const example = (error: string, error_description: string) => ({ value: { error, error_description } });

/**
 * Every error of a token endpoint (contract §2 table) as the RFC 6749 §5.2 application/json it is,
 * downtime and body size included, so an OAuth library reads each one (issue 13). Its Cache-Control,
 * WWW-Authenticate and Retry-After headers are added to the document by describeResponseHeaders.
 */
export function ApiOAuthErrors(options: { changesEidOrders?: boolean } = {}) {
  const schema = { $ref: getSchemaPath(OAuthErrorDto) };
  return applyDecorators(
    ApiExtraModels(OAuthErrorDto),
    ApiResponse({
      status: 400,
      description: 'invalid_request, unsupported_grant_type, invalid_grant (also a refresh token presented with another client certificate or on the other port than it was obtained, contract §16), authorization_pending or expired_token',
      content: {
        'application/json': {
          schema,
          examples: {
            invalid_request: example('invalid_request', 'The PSU-IP-Address header is required'),
            unsupported_grant_type: example('unsupported_grant_type', 'grant_type password is not supported'),
            invalid_grant: example('invalid_grant', 'The pending_code has already been exchanged.'),
            certificate_bound: example('invalid_grant', 'This refresh_token is bound to another client certificate (contract §16, RFC 8705): present the certificate it was obtained with.'),
            authorization_pending: example('authorization_pending', 'The user has not completed the eid authentication yet'),
            expired_token: example('expired_token', 'The eid authentication expired.'),
            bad_body: example('invalid_request', 'The body is not application/x-www-form-urlencoded'),
          },
        },
      },
    }),
    ApiResponse({
      status: 401,
      description: 'invalid_client: missing or unreadable credentials; on the strict-mode TLS port also no client certificate, or one that is not the sandbox CA\'s, not yet valid, expired or revoked (contract §2, §16; bank §7.1 case 1)',
      content: { 'application/json': { schema, example: { error: 'invalid_client', error_description: 'The X-PSD2-CLIENT-TEST-CERT header is missing' } } },
    }),
    ApiResponse({
      status: 403,
      description: 'kyc_required: the user has not answered the know-your-customer questions (bank §7.1 case 6)',
      content: { 'application/json': { schema, example: { error: 'kyc_required', error_description: 'The user has not answered the know-your-customer questions' } } },
    }),
    ApiResponse({
      status: 413,
      description: 'invalid_request: the body is over 1 MB',
      content: { 'application/json': { schema, example: { error: 'invalid_request', error_description: 'The request body is larger than the limit of 1 MB.' } } },
    }),
    ApiResponse({
      status: 503,
      description:
        'temporarily_unavailable: inside a planned downtime window of bank §8 (sandbox clock), with Retry-After in seconds (contract §7)' +
        (options.changesEidOrders ? '; or concurrent requests kept changing the pending code\'s eid order, so this one changed nothing (Retry-After: 1)' : ''),
      content: {
        'application/json': {
          schema,
          examples: {
            planned_downtime: example('temporarily_unavailable', 'Planned downtime until 2026-11-22T07:45:00+01:00 (bank §8).'),
            ...(options.changesEidOrders
              ? { concurrent_changes: example('temporarily_unavailable', 'The eid order 0b4bd1a4-8f5e-4bb5-9a57-2f5c3e9c6d11 kept changing under concurrent requests; try again.') }
              : {}),
          },
        },
      },
    }),
  );
}
