import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequireScope } from '@app/auth';
import { API_TAG, ApiInterface, ApiProblems, UuidPipe } from '@app/common';
import { ACCOUNT_NUMBER, ACCOUNT_PARAM } from '../ais/path-params';
import { CreateTransferDto, TransferCreatedDto, TransferStatusDto } from '../transfers/transfer.dto';
import { TransferService } from '../transfers/transfer.service';
import { NO_ACCOUNT, NO_TRANSFER, PIS_INPUT_AND_CREDENTIALS, REFERENCE_ID_PARAM } from './pis.controller';

const ACCOUNT = ACCOUNT_NUMBER('account-number');
const PIS_V3_PROBLEMS = [
  ...PIS_INPUT_AND_CREDENTIALS,
  { status: 403, code: 'SCOPE_NOT_GRANTED' as const, description: 'The token lacks PIS, or the certificate lacks PSP_PI (ROLE_NOT_IN_CERTIFICATE)' },
];

/** The two PIS routes usable with the non-authenticated token (bank §4.2; contract §5). */
@ApiInterface(API_TAG.pis)
@Psd2Bearer()
@RequireScope('PIS')
@AllowTokenKinds('non_authenticated', 'authenticate', 'authorize')
@ApiProblems(...PIS_V3_PROBLEMS)
@Controller('v3/accounts')
export class PisV3Controller {
  constructor(private readonly transfers: TransferService) {}

  @Post(':accountNumber/transfers')
  @HttpCode(201)
  @ApiOperation({ summary: 'Order a transfer (v3)', description: 'As POST /psd2/savings/3.0/accounts/{account-number}/transfers; it must be signed with eid (bank §4.2 rule 3).' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiCreatedResponse({ type: TransferCreatedDto })
  @ApiProblems(NO_ACCOUNT, 413)
  orderTransfer(@Param('accountNumber', ACCOUNT) accountNumber: string, @Body() dto: CreateTransferDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferCreatedDto> {
    return this.transfers.order(accountNumber, dto, caller);
  }

  @Get(':accountNumber/transfers/:referenceId/status')
  @ApiOperation({
    summary: 'Status of a transfer (v3)',
    description: 'The status of a transfer this TPP ordered with the non-authenticated token (bank §4.3; contract §10).',
  })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam(REFERENCE_ID_PARAM)
  @ApiOkResponse({ type: TransferStatusDto })
  @ApiProblems(NO_TRANSFER)
  transferStatus(
    @Param('accountNumber', ACCOUNT) accountNumber: string,
    @Param('referenceId', new UuidPipe('reference-id')) referenceId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<TransferStatusDto> {
    return this.transfers.status(accountNumber, referenceId, caller);
  }
}
