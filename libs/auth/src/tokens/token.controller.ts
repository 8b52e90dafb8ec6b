import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { API_TAG, ApiInterface } from '@app/common';
import { CurrentPsd2Client, Psd2Certificate } from '../certificate/psd2-client.decorator';
import type { Psd2Client } from '../certificate/psd2-client';
import { ApiOAuthErrors } from './api-oauth-errors.decorator';
import { FormBody } from './form-body.decorator';
import { TokenRequestFormDto, TokenResponseDto } from './token.dto';
import { TokenService } from './token.service';

@ApiInterface(API_TAG.psd2Auth)
@Psd2Certificate()
@Controller('psd2/auth/1.0/token')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @ApiOperation({
    summary: 'Issue an access token (bank §2.4, §4.1; contract §5)',
    description:
      'grant_type=pending_authorization_code&pending_code=… exchanges a COMPLETE authentication (single use, within 5 minutes); ' +
      'grant_type=refresh_token&refresh_token=… gives an AIS-only 300 s token (4 uses per Stockholm day, 180 days); ' +
      'grant_type=non_authenticated_token&user_id=<personal number> gives a token with the certificate\'s roles as scopes. ' +
      'Errors are RFC 6749 { error, error_description }.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: TokenRequestFormDto })
  @ApiOkResponse({ type: TokenResponseDto })
  // The pending-code exchange reads its eid order, which may be contended (contract §4).
  @ApiOAuthErrors({ changesEidOrders: true })
  issueToken(@CurrentPsd2Client() client: Psd2Client, @FormBody() form: Record<string, unknown>): Promise<TokenResponseDto> {
    return this.tokens.issue(form, client);
  }
}
