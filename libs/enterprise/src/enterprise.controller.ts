import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiOAuthErrors, FormBody } from '@app/auth';
import { API_TAG, ApiInterface, ApiProblems, CertificateBinding } from '@app/common';
import { CurrentPartner, type Partner, PartnerAuth } from '@app/directory';
import { AuthorizeQueryDto, AuthorizeResponseDto, EnterpriseTokenFormDto, EnterpriseTokenResponseDto } from './enterprise.dto';
import { EnterpriseService } from './enterprise.service';

/** The token endpoint of the enterprise interface: RFC 6749 errors, chosen by its path (contract §2). */
@ApiInterface(API_TAG.enterprise)
@PartnerAuth({ keyOnly: true })
@Controller('api/auth/1.0/token')
export class EnterpriseTokenController {
  constructor(private readonly enterprise: EnterpriseService) {}

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Issue an enterprise access token (bank §2.4, §4.6)',
    description:
      'Authenticated by the partner key as bearer. grant_type=client_credentials: a 300 s token accepted on the partner routes ' +
      'in place of the key (auth_method client_credentials). grant_type=pending_authorization_code&pending_code=…: a 300 s ' +
      'end-user token (auth_method authorize), single use, that reads that user\'s loan applications. ' +
      'A token issued on the strict-mode TLS port is bound to the client certificate of that handshake and accepted only with it there; a token of the plain port only on the plain port (contract §16, RFC 8705).',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: EnterpriseTokenFormDto })
  @ApiOkResponse({ type: EnterpriseTokenResponseDto })
  @ApiOAuthErrors()
  issueToken(
    @FormBody() form: Record<string, unknown>,
    @CurrentPartner() partner: Partner,
    @CertificateBinding() certificateBinding: string | null,
  ): Promise<EnterpriseTokenResponseDto> {
    return this.enterprise.issue(form, partner, certificateBinding);
  }
}

@ApiInterface(API_TAG.enterprise)
@PartnerAuth({ keyOnly: true })
@Controller('api/auth/1.0/authorize')
export class EnterpriseAuthorizeController {
  constructor(private readonly enterprise: EnterpriseService) {}

  @Get()
  @ApiOperation({
    summary: 'Authorize an end user (bank §4.6)',
    description: 'Any client_id and any personal number with a correct check digit; the eid is not invoked in the sandbox, so the authorization counts as successful.',
  })
  @ApiOkResponse({ type: AuthorizeResponseDto })
  @ApiProblems(
    { status: 400, description: 'A missing or malformed query parameter, e.g. user_id failing the check digit (VALIDATION_FAILED names it)' },
    { status: 401, description: 'No Authorization: Bearer <partner api key>, or an unknown one; on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
  )
  authorize(@Query() query: AuthorizeQueryDto, @CurrentPartner() partner: Partner): Promise<AuthorizeResponseDto> {
    return this.enterprise.authorize(query, partner);
  }
}
