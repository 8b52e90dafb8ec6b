import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequireScope } from '@app/auth';
import { API_TAG, ApiInterface, ApiProblems, UuidPipe } from '@app/common';
import { AccountDetailsDto, AccountListDto, AccountNumbersDto, AccountTransferDto, AccountTransfersDto, FundsAvailableDto } from './ais.dto';
import { AisService } from './ais.service';
import { ACCOUNT_NUMBER, AMOUNT, ACCOUNT_PARAM, AMOUNT_PARAM, CURRENCY, CURRENCY_PARAM, TRANSFER_ID_PARAM } from './path-params';

const ACCOUNT = ACCOUNT_NUMBER('accountNumber');
const AIS_PROBLEMS = [
  { status: 400, description: 'A malformed path segment, or PSU-IP-Address missing or malformed with a non-authenticated token (VALIDATION_FAILED names it)' },
  { status: 401, description: 'No valid PSD2 access token (unknown, expired, another TPP\'s, or presented with another client certificate or on the other port than it was obtained: contract §16), or X-PSD2-CLIENT-TEST-CERT missing, not a certificate or carrying an organization id beginning with sha256:; on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
  { status: 403, code: 'SCOPE_NOT_GRANTED' as const, description: 'The token lacks AIS, or the certificate lacks PSP_AI (ROLE_NOT_IN_CERTIFICATE)' },
];
const NO_ACCOUNT = { status: 404, description: 'No such account of the user' };

/**
 * AIS (bank §4.2): the authenticate, authorize and non-authenticated flows behave the same (§4.2
 * rule 4); with a non-authenticated token PSU-IP-Address is mandatory (§4.2, §5.9).
 */
@ApiInterface(API_TAG.ais)
@Psd2Bearer()
@RequireScope('AIS')
@AllowTokenKinds('authenticate', 'authorize', 'non_authenticated')
@ApiProblems(...AIS_PROBLEMS)
@Controller('v2')
export class AisController {
  constructor(private readonly ais: AisService) {}

  @Get('accounts-numbers')
  @ApiOperation({
    summary: 'The user\'s account numbers',
    description: 'The numbers of every account the token\'s user owns (bank §4.2; contract §10).',
  })
  @ApiOkResponse({ type: AccountNumbersDto })
  async accountNumbers(@CurrentPsd2Caller() caller: Psd2Caller): Promise<AccountNumbersDto> {
    return { account_numbers: await this.ais.accountNumbers(caller) };
  }

  @Get('accounts')
  @ApiOperation({
    summary: 'The user\'s accounts with balances',
    description: 'Every account the token\'s user owns, with its balance (bank §4.2; contract §10).',
  })
  @ApiOkResponse({ type: AccountListDto })
  async accounts(@CurrentPsd2Caller() caller: Psd2Caller): Promise<AccountListDto> {
    return { accounts: await this.ais.list(caller) };
  }

  @Get('accounts/:accountNumber')
  @ApiOperation({ summary: 'One account with its transactions', description: 'Booked transfers, newest first.' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiOkResponse({ type: AccountDetailsDto })
  @ApiProblems(NO_ACCOUNT)
  account(@Param('accountNumber', ACCOUNT) accountNumber: string, @CurrentPsd2Caller() caller: Psd2Caller): Promise<AccountDetailsDto> {
    return this.ais.details(accountNumber, caller);
  }

  // The static `transfers` routes come before /{currency}/{amount} (contract §10).
  @Get('accounts/:accountNumber/transfers')
  @ApiOperation({
    summary: 'Every transfer ordered from the account, in any status',
    description: 'The transfers ordered from this account of the token\'s user, by any TPP, in any status (bank §4.2; contract §10).',
  })
  @ApiParam(ACCOUNT_PARAM)
  @ApiOkResponse({ type: AccountTransfersDto })
  @ApiProblems(NO_ACCOUNT)
  async transfers(@Param('accountNumber', ACCOUNT) accountNumber: string, @CurrentPsd2Caller() caller: Psd2Caller): Promise<AccountTransfersDto> {
    return { transfers: await this.ais.transfersOf(accountNumber, caller) };
  }

  @Get('accounts/:accountNumber/transfers/:transferId')
  @ApiOperation({ summary: 'One transfer ordered from the account', description: '`transferId` is the transfer\'s reference_id.' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam(TRANSFER_ID_PARAM)
  @ApiOkResponse({ type: AccountTransferDto })
  @ApiProblems({ status: 404, description: 'No such account of the user, or no such transfer from it' })
  transfer(
    @Param('accountNumber', ACCOUNT) accountNumber: string,
    @Param('transferId', new UuidPipe('transferId')) transferId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<AccountTransferDto> {
    return this.ais.transfer(accountNumber, transferId, caller);
  }

  @Get('accounts/:accountNumber/:currency/:amount')
  @ApiOperation({ summary: 'Funds check: does the available balance cover the amount?', description: 'Another currency than the account\'s answers false.' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam(CURRENCY_PARAM)
  @ApiParam(AMOUNT_PARAM)
  @ApiOkResponse({ type: FundsAvailableDto })
  @ApiProblems(NO_ACCOUNT)
  fundsCheck(
    @Param('accountNumber', ACCOUNT) accountNumber: string,
    @Param('currency', CURRENCY) currency: string,
    @Param('amount', AMOUNT) amount: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<FundsAvailableDto> {
    return this.ais.fundsCheck(accountNumber, currency, amount, caller);
  }
}
