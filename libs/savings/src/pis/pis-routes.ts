import { applyDecorators, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiProblems, UuidPipe, Idempotent } from '@app/common';
import { ACCOUNT_NUMBER, ACCOUNT_PARAM } from '../ais/path-params';
import { TransferCreatedDto, TransferStatusDto } from '../transfers/transfer.dto';

/*
 * What PIS 3.0 and PIS v3 share (bank §4.2, §4.3): the path parameters, their problems, and the two
 * routes v3 offers with the same paths under its own prefix. Written once, so the two stay alike.
 */

/** 400 and 401 of every PIS route (contract §2, §3). */
export const PIS_INPUT_AND_CREDENTIALS = [
  { status: 400, description: 'A missing or malformed field, path segment or PSU-IP-Address (VALIDATION_FAILED names it); a transfer the rules of bank §2.7 refuse' },
  { status: 401, description: 'No valid PSD2 access token (unknown, expired, another TPP\'s, or presented with another client certificate or on the other port than it was obtained: contract §16), or X-PSD2-CLIENT-TEST-CERT missing, not a certificate or carrying an organization id beginning with sha256:; on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
];
export const NO_ACCOUNT = { status: 404, description: 'No such account of the user' };
export const NO_TRANSFER = { status: 404, description: 'No such account of the user, or no such transfer of this TPP on it' };
export const REFERENCE_ID_PARAM = { name: 'referenceId', format: 'uuid', description: 'The reference-id segment: the reference_id of the order' };

/** The account-number segment: digits only, else 400 naming `account-number`. */
export const AccountNumberParam = () => Param('accountNumber', ACCOUNT_NUMBER('account-number'));
/** A reference-id segment: a UUID, else 400 naming `reference-id`. */
export const ReferenceIdParam = () => Param('referenceId', new UuidPipe('reference-id'));

/** POST accounts/{account-number}/transfers. */
export const OrderTransferRoute = (operation: { summary: string; description: string }) =>
  applyDecorators(
    Post('accounts/:accountNumber/transfers'),
    HttpCode(201),
    Idempotent(),
    ApiOperation(operation),
    ApiParam(ACCOUNT_PARAM),
    ApiCreatedResponse({ type: TransferCreatedDto }),
    ApiProblems(NO_ACCOUNT, 413),
  );

/** GET accounts/{account-number}/transfers/{reference-id}/status. */
export const TransferStatusRoute = (operation: { summary: string; description: string }) =>
  applyDecorators(
    Get('accounts/:accountNumber/transfers/:referenceId/status'),
    ApiOperation(operation),
    ApiParam(ACCOUNT_PARAM),
    ApiParam(REFERENCE_ID_PARAM),
    ApiOkResponse({ type: TransferStatusDto }),
    ApiProblems(NO_TRANSFER),
  );
