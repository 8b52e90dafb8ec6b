import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequireScope } from '@app/auth';
import { ApiProblems, UuidPipe } from '@app/common';
import { ACCOUNT_NUMBER } from '../ais/path-params';
import { CreateTransferDto, TransferCreatedDto, TransferStatusDto } from '../transfers/transfer.dto';
import { TransferService } from '../transfers/transfer.service';
import { PIS_PROBLEMS } from './pis.controller';

const ACCOUNT = ACCOUNT_NUMBER('account-number');

/** The two PIS routes usable with the non-authenticated token (bank §4.2; contract §5). */
@ApiTags('PIS')
@Psd2Bearer()
@RequireScope('PIS')
@AllowTokenKinds('non_authenticated', 'authenticate', 'authorize')
@ApiProblems(...PIS_PROBLEMS)
@Controller('v3/accounts')
export class PisV3Controller {
  constructor(private readonly transfers: TransferService) {}

  @Post(':accountNumber/transfers')
  @HttpCode(201)
  @ApiOperation({ summary: 'Order a transfer (v3)', description: 'As POST /psd2/savings/3.0/accounts/{account-number}/transfers; it must be signed with eid (bank §4.2 rule 3).' })
  @ApiParam({ name: 'accountNumber', example: '92501234567' })
  @ApiCreatedResponse({ type: TransferCreatedDto })
  @ApiProblems(404)
  orderTransfer(@Param('accountNumber', ACCOUNT) accountNumber: string, @Body() dto: CreateTransferDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferCreatedDto> {
    return this.transfers.order(accountNumber, dto, caller);
  }

  @Get(':accountNumber/transfers/:referenceId/status')
  @ApiOperation({ summary: 'Status of a transfer (v3)' })
  @ApiParam({ name: 'accountNumber', example: '92501234567' })
  @ApiParam({ name: 'referenceId', format: 'uuid' })
  @ApiOkResponse({ type: TransferStatusDto })
  @ApiProblems(404)
  transferStatus(
    @Param('accountNumber', ACCOUNT) accountNumber: string,
    @Param('referenceId', new UuidPipe('reference-id')) referenceId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<TransferStatusDto> {
    return this.transfers.status(accountNumber, referenceId, caller);
  }
}
