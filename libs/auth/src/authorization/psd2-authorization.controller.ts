import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_TAG, ApiInterface, ApiProblems, PERSONAL_NUMBER_INPUT, Idempotent } from '@app/common';
import { EID_ORDER_CONTENDED } from '@app/eid';
import { CurrentPsd2Client, Psd2Certificate } from '../certificate/psd2-client.decorator';
import { ScopesAskedInBody } from '../certificate/psd2-certificate.strategy';
import type { Psd2Client } from '../certificate/psd2-client';
import { PsuIpAddress } from '../psu-ip-address';
import {
  AuthenticationStatusDto,
  PendingCodeDto,
  StartAuthenticationDto,
  StartAuthenticationResponseDto,
} from './authorization.dto';
import { Psd2AuthorizationService } from './psd2-authorization.service';

const SANDBOX_USER_HEADER = {
  name: 'X-Sandbox-User',
  required: false,
  description: 'Personal number of the PSU who authenticates; default DEFAULT_SANDBOX_USER (contract §4). An unknown user is 400.',
  schema: { type: 'string' as const, pattern: PERSONAL_NUMBER_INPUT.pattern, example: PERSONAL_NUMBER_INPUT.example },
};
const START_PROBLEMS = [
  { status: 403, code: 'ROLE_NOT_IN_CERTIFICATE' as const, description: 'A scope whose role the certificate lacks (bank §1, §7.4)' },
];
const START_DESCRIPTION =
  'Starts an eid authentication of the PSU. The pending_code serves status, cancel and the token exchange. ' +
  'AUTO_START: launch eid://autostarttoken=<auto_start_token>&redirect=null. QR_CODE: show qr_code from status, polling at most once a second.';

@ApiInterface(API_TAG.psd2Auth)
@Psd2Certificate()
@ApiProblems(
  { status: 400, description: 'A missing or malformed field, PSU-IP-Address or header (VALIDATION_FAILED names it)' },
  { status: 401, description: 'X-PSD2-CLIENT-TEST-CERT missing, not a certificate or carrying an organization id beginning with sha256: (contract §16); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
  413,
)
@Controller('psd2/auth/3.0')
export class Psd2AuthorizationController {
  constructor(private readonly service: Psd2AuthorizationService) {}

  @Post('authenticate')
  @HttpCode(200)
  @ScopesAskedInBody()
  @Idempotent()
  @ApiOperation({ summary: 'Start the authenticate flow (bank §2.1, §2.2)', description: `${START_DESCRIPTION} Yields an access token of 30 minutes, no refresh token.` })
  @ApiHeader(SANDBOX_USER_HEADER)
  @ApiOkResponse({ type: StartAuthenticationResponseDto })
  @ApiProblems(...START_PROBLEMS)
  authenticate(
    @Body() dto: StartAuthenticationDto,
    @CurrentPsd2Client() client: Psd2Client,
    // Required here, so present: PsuIpAddressGuard checked it (contract §2).
    @PsuIpAddress() psuIpAddress: string,
    @Headers('X-Sandbox-User') sandboxUser?: string,
  ): Promise<StartAuthenticationResponseDto> {
    return this.service.start('authenticate', dto, { client, psuIpAddress, sandboxUser });
  }

  @Post('authorize')
  @HttpCode(200)
  @ScopesAskedInBody()
  @Idempotent()
  @ApiOperation({
    summary: 'Start the authorize flow (bank §2.1, §2.2)',
    description: `${START_DESCRIPTION} Yields an access token of 5 minutes and, with AIS, a refresh token valid 180 days (4 uses a day).`,
  })
  @ApiHeader(SANDBOX_USER_HEADER)
  @ApiOkResponse({ type: StartAuthenticationResponseDto })
  @ApiProblems(...START_PROBLEMS)
  authorize(
    @Body() dto: StartAuthenticationDto,
    @CurrentPsd2Client() client: Psd2Client,
    @PsuIpAddress() psuIpAddress: string,
    @Headers('X-Sandbox-User') sandboxUser?: string,
  ): Promise<StartAuthenticationResponseDto> {
    return this.service.start('authorize', dto, { client, psuIpAddress, sandboxUser });
  }

  @Post('status')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Status of an authentication (bank §2.3)',
    description: 'eid_auth_status PENDING, COMPLETE or FAILED with the eid hint code; qr_code in QR_CODE mode while PENDING. A finished authentication answers its final state.',
  })
  @ApiOkResponse({ type: AuthenticationStatusDto })
  @ApiProblems(
    { status: 404, description: 'No authentication with this pending_code belongs to this TPP' },
    { status: 429, code: 'POLLING_TOO_FAST', description: 'QR_CODE mode: less than a second since the last status call (Retry-After: 1)' },
    EID_ORDER_CONTENDED,
  )
  status(@Body() dto: PendingCodeDto, @CurrentPsd2Client() client: Psd2Client): Promise<AuthenticationStatusDto> {
    return this.service.status(dto.pending_code, client);
  }

  @Post('cancel')
  @HttpCode(204)
  @ApiOperation({ summary: 'Cancel an authentication (bank §3.1, §7.4)', description: 'Status then answers FAILED with hint CANCELLED.' })
  @ApiNoContentResponse()
  @ApiProblems(
    { status: 404, description: 'No authentication with this pending_code belongs to this TPP' },
    { status: 409, code: 'INVALID_STATE', description: 'The authentication is COMPLETE or FAILED (bank §7.4 rule 2)' },
    EID_ORDER_CONTENDED,
  )
  async cancel(@Body() dto: PendingCodeDto, @CurrentPsd2Client() client: Psd2Client): Promise<void> {
    await this.service.cancel(dto.pending_code, client);
  }
}
