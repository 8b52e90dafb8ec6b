import { Body, Controller } from '@nestjs/common';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequireScope } from '@app/auth';
import { API_TAG, ApiInterface, ApiProblems } from '@app/common';
import { CreateTransferDto, TransferCreatedDto, TransferStatusDto } from '../transfers/transfer.dto';
import { TransferService } from '../transfers/transfer.service';
import { AccountNumberParam, OrderTransferRoute, PIS_INPUT_AND_CREDENTIALS, ReferenceIdParam, TransferStatusRoute } from './pis-routes';

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
@Controller('v3')
export class PisV3Controller {
  constructor(private readonly transfers: TransferService) {}

  @OrderTransferRoute({
    summary: 'Order a transfer (v3)',
    description: 'As POST /psd2/savings/3.0/accounts/{account-number}/transfers; it must be signed with eid (bank §4.2 rule 3).',
  })
  orderTransfer(@AccountNumberParam() accountNumber: string, @Body() dto: CreateTransferDto, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferCreatedDto> {
    return this.transfers.order(accountNumber, dto, caller);
  }

  @TransferStatusRoute({
    summary: 'Status of a transfer (v3)',
    description: 'The status of a transfer this TPP ordered with the non-authenticated token (bank §4.3; contract §10).',
  })
  transferStatus(@AccountNumberParam() accountNumber: string, @ReferenceIdParam() referenceId: string, @CurrentPsd2Caller() caller: Psd2Caller): Promise<TransferStatusDto> {
    return this.transfers.status(accountNumber, referenceId, caller);
  }
}
