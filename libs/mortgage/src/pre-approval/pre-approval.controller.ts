import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { API_TAG, ApiInterface, ApiProblems, UuidPipe, Idempotent } from '@app/common';
import { CurrentPartner, type Partner, PartnerAuth } from '@app/directory';
import { AcceptPreApprovalDto, AcceptPreApprovalResponseDto, CreatePreApprovalDto, PreApprovalCreatedDto, PreApprovalStatusDto } from './pre-approval.dto';
import { PreApprovalService } from './pre-approval.service';

const ID = new UuidPipe('id');
const ID_PARAM = { name: 'id', format: 'uuid', description: 'The pre-approval id from POST /mortgage/2.0/pre-approval' };
const NO_PRE_APPROVAL = { status: 404, description: 'No pre-approval with this id of this partner' };

/** Mortgage pre-approval (bank §4.5), under {partner_base_url} with and without /partner (contract §1). */
@ApiInterface(API_TAG.mortgage)
@PartnerAuth()
@ApiProblems(
  { status: 400, description: 'A missing or malformed field or path segment, or an applicant who is not a sandbox user (VALIDATION_FAILED names it)' },
  { status: 401, description: 'No Authorization: Bearer <partner api key or enterprise client-credentials token>, or an unknown one, or an enterprise token presented with another client certificate or on the other port than it was obtained (error="invalid_token", contract §16); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
)
@Controller(['mortgage/2.0/pre-approval', 'partner/mortgage/2.0/pre-approval'])
export class PreApprovalController {
  constructor(private readonly preApprovals: PreApprovalService) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    summary: 'Generate a pre-approval offer (contract §9)',
    description: '1 or 2 applicants, each a sandbox user; amounts in whole SEK. A second variant when unsecured_loan_amount is given. Valid 30 days.',
  })
  @ApiCreatedResponse({ type: PreApprovalCreatedDto })
  @ApiProblems(413)
  create(@Body() dto: CreatePreApprovalDto, @CurrentPartner() partner: Partner): Promise<PreApprovalCreatedDto> {
    return this.preApprovals.create(partner, dto);
  }

  @Post(':id/acceptance')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Accept a variant (bank §2.6)',
    description: 'AWAITING_ACCEPTANCE; keep the participant ids and start signing each through the signing interface.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: AcceptPreApprovalResponseDto })
  @ApiProblems(NO_PRE_APPROVAL, { status: 409, code: 'INVALID_STATE', description: 'Already accepted, or expired' }, 413)
  accept(@Param('id', ID) id: string, @Body() dto: AcceptPreApprovalDto, @CurrentPartner() partner: Partner): Promise<AcceptPreApprovalResponseDto> {
    return this.preApprovals.accept(partner, id, dto.with_unsecured_loan);
  }

  @Get(':id/status')
  @ApiOperation({
    summary: 'Status of a pre-approval (bank §2.6, §3.3)',
    description:
      'OFFER_GENERATED → AWAITING_ACCEPTANCE → SIGNING_ONGOING → PROCESSING (customer_service_reference) → APPROVED | REJECTED, or EXPIRED after 30 days.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PreApprovalStatusDto })
  @ApiProblems(NO_PRE_APPROVAL)
  status(@Param('id', ID) id: string, @CurrentPartner() partner: Partner): Promise<PreApprovalStatusDto> {
    return this.preApprovals.status(partner, id);
  }
}
