import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequirePsuIpAddress, RequireScope } from '@app/auth';
import { API_TAG, ApiInterface, ApiProblems, UuidPipe, Idempotent } from '@app/common';
import { EID_ORDER_CONTENDED } from '@app/eid';
import { ACCOUNT_PARAM } from '../ais/path-params';
import { CollectTransferSigningDto, StartTransferSigningDto, TransferSigningStartedDto, TransferSigningStatusDto } from '../signing/signing.dto';
import { TransferSigningService } from '../signing/transfer-signing.service';
import {
  CreateRecurringTransferDto,
  CreateTransferDto,
  RecurringTransferListDto,
  RecurringTransferStatusDto,
  TransferCreatedDto,
  TransferStatusDto,
} from '../transfers/transfer.dto';
import { TransferService } from '../transfers/transfer.service';
import { AccountNumberParam, NO_ACCOUNT, NO_TRANSFER, OrderTransferRoute, PIS_INPUT_AND_CREDENTIALS, REFERENCE_ID_PARAM, ReferenceIdParam, TransferStatusRoute } from './pis-routes';

const PIS_PROBLEMS = [
  ...PIS_INPUT_AND_CREDENTIALS,
  {
    status: 403,
    code: 'TOKEN_KIND_NOT_ALLOWED' as const,
    description: 'A token of a flow this route does not take; or the token lacks PIS (SCOPE_NOT_GRANTED); or the certificate lacks PSP_PI (ROLE_NOT_IN_CERTIFICATE)',
  },
];
const NOT_OPEN = { status: 409, code: 'INVALID_STATE' as const, description: 'The transfer (or signing) is past the state this needs' };

/** Payment initiation 3.0 (bank §4.3; contract §5, §10): authenticate and authorize tokens with PIS. */
@ApiInterface(API_TAG.pis)
@Psd2Bearer()
@RequireScope('PIS')
@AllowTokenKinds('authenticate', 'authorize')
@ApiProblems(...PIS_PROBLEMS)
@Controller('psd2/savings/3.0')
export class PisController {
  constructor(
    private readonly transfers: TransferService,
    private readonly signing: TransferSigningService,
  ) {}

  @OrderTransferRoute({ summary: 'Order a transfer', description: 'AWAITING_SIGNATURE until signed with eid (bank §4.2 rule 3); executes at 00:00 Stockholm on transfer_date.' })
  orderTransfer(@AccountNumberParam() accountNumber: string, @Body() dto: CreateTransferDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferCreatedDto> {
    return this.transfers.order(accountNumber, dto, caller);
  }

  @Post('accounts/:accountNumber/recurring-transfers')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({ summary: 'Order a recurring transfer', description: 'transfer_date is the first occurrence; ACTIVE once signed. Updating is not available (bank §4.3).' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiCreatedResponse({ type: TransferCreatedDto })
  @ApiProblems(NO_ACCOUNT, 413)
  orderRecurringTransfer(
    @AccountNumberParam() accountNumber: string,
    @Body() dto: CreateRecurringTransferDto,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<TransferCreatedDto> {
    return this.transfers.orderRecurring(accountNumber, dto, caller);
  }

  @Post('transfers/signing/start')
  @HttpCode(200)
  @Idempotent()
  @RequirePsuIpAddress()
  @ApiOperation({ summary: 'Start the eid signing of transfers', description: 'Answers signing_id and autostart_token only (bank §4.3).' })
  @ApiOkResponse({ type: TransferSigningStartedDto })
  @ApiProblems({ status: 404, description: 'A reference_id names no transfer of this TPP and user' }, { ...NOT_OPEN, description: 'A transfer is not AWAITING_SIGNATURE' }, 413)
  startSigning(@Body() dto: StartTransferSigningDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferSigningStartedDto> {
    return this.signing.start(dto.reference_ids, caller);
  }

  @Post('transfers/signing/collect')
  @HttpCode(200)
  @RequirePsuIpAddress()
  @ApiOperation({ summary: 'Collect a transfer signing', description: 'The statuses and hint codes of bank §3.2; COMPLETE signs the transfers.' })
  @ApiOkResponse({ type: TransferSigningStatusDto })
  @ApiProblems({ status: 404, description: 'No transfer signing with this signing_id of this TPP and user' }, 413, EID_ORDER_CONTENDED)
  collectSigning(@Body() dto: CollectTransferSigningDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferSigningStatusDto> {
    return this.signing.collect(dto.signing_id, caller);
  }

  @Put('transfers/sign-bankid/:signingId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sandbox only: simulate the signature', description: 'The signing is COMPLETE and its transfers SIGNED.' })
  @ApiParam({ name: 'signingId', format: 'uuid', description: 'The signing-id segment: signing_id from signing/start' })
  @ApiNoContentResponse()
  @ApiProblems({ status: 404, description: 'No transfer signing with this signing_id of this TPP and user' }, NOT_OPEN, EID_ORDER_CONTENDED)
  async signBankId(@Param('signingId', new UuidPipe('signing-id')) signingId: string, @CurrentPsd2Caller() caller: Psd2Caller): Promise<void> {
    await this.signing.signNow(signingId, caller);
  }

  @Get('accounts/recurring-transfers')
  @ApiOperation({
    summary: 'The recurring transfers this TPP ordered for the user',
    description: 'Every recurring transfer this TPP ordered for the token\'s user, in any status (bank §4.2; contract §10).',
  })
  @ApiOkResponse({ type: RecurringTransferListDto })
  async listRecurringTransfers(@CurrentPsd2Caller() caller: Psd2Caller): Promise<RecurringTransferListDto> {
    return { recurring_transfers: await this.transfers.listRecurring(caller) };
  }

  @TransferStatusRoute({
    summary: 'Status of a transfer',
    description: 'The status of a transfer this TPP ordered from the account; another TPP\'s is 404 (bank §4.2; contract §10).',
  })
  transferStatus(@AccountNumberParam() accountNumber: string, @ReferenceIdParam() referenceId: string, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferStatusDto> {
    return this.transfers.status(accountNumber, referenceId, caller);
  }

  @Get('accounts/:accountNumber/recurring-transfers/:referenceId/status')
  @ApiOperation({
    summary: 'Status of a recurring transfer, with its next transfer date',
    description: 'The status of a recurring transfer this TPP ordered, and when it next runs (bank §4.2; contract §10).',
  })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam(REFERENCE_ID_PARAM)
  @ApiOkResponse({ type: RecurringTransferStatusDto })
  @ApiProblems(NO_TRANSFER)
  recurringTransferStatus(
    @AccountNumberParam() accountNumber: string,
    @ReferenceIdParam() referenceId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<RecurringTransferStatusDto> {
    return this.transfers.recurringStatus(accountNumber, referenceId, caller);
  }

  @Delete('accounts/:accountNumber/transfers/:transferId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a transfer before it executes', description: 'Status DELETED; an executed transfer is 409.' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam({ name: 'transferId', format: 'uuid', description: 'The transfer-id segment: the transfer\'s reference_id' })
  @ApiNoContentResponse()
  @ApiProblems(NO_TRANSFER, NOT_OPEN)
  async deleteTransfer(
    @AccountNumberParam() accountNumber: string,
    @Param('transferId', new UuidPipe('transfer-id')) transferId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<void> {
    await this.transfers.delete(accountNumber, transferId, caller);
  }

  @Delete('accounts/:accountNumber/recurring-transfers/:recurringTransferId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a recurring transfer', description: 'Stops its future occurrences (status DELETED).' })
  @ApiParam(ACCOUNT_PARAM)
  @ApiParam({ name: 'recurringTransferId', format: 'uuid', description: 'The recurring-transfer-id segment: the recurring transfer\'s reference_id' })
  @ApiNoContentResponse()
  @ApiProblems(NO_TRANSFER, NOT_OPEN)
  async deleteRecurringTransfer(
    @AccountNumberParam() accountNumber: string,
    @Param('recurringTransferId', new UuidPipe('recurring-transfer-id')) recurringTransferId: string,
    @CurrentPsd2Caller() caller: Psd2Caller,
  ): Promise<void> {
    await this.transfers.deleteRecurring(accountNumber, recurringTransferId, caller);
  }
}
