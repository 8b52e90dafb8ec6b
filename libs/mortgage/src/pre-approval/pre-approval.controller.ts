import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiProblems, UuidPipe } from '@app/common';
import { CurrentPartner, type Partner, PartnerAuth } from '@app/directory';
import { AcceptPreApprovalDto, AcceptPreApprovalResponseDto, CreatePreApprovalDto, PreApprovalCreatedDto, PreApprovalStatusDto } from './pre-approval.dto';
import { PreApprovalService } from './pre-approval.service';

const ID = new UuidPipe('id');
const ID_PARAM = { name: 'id', format: 'uuid' };

/** Mortgage pre-approval (bank §4.5), under {partner_base_url} with and without /partner (contract §1). */
@ApiTags('Mortgage')
@PartnerAuth()
@ApiProblems(400, 401)
@Controller(['mortgage/2.0/pre-approval', 'partner/mortgage/2.0/pre-approval'])
export class PreApprovalController {
  constructor(private readonly preApprovals: PreApprovalService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Generate a pre-approval offer (contract §9)',
    description: '1 or 2 applicants, each a sandbox user; amounts in whole SEK. A second variant when unsecured_loan_amount is given. Valid 30 days.',
  })
  @ApiCreatedResponse({ type: PreApprovalCreatedDto })
  create(@Body() dto: CreatePreApprovalDto, @CurrentPartner() partner: Partner): Promise<PreApprovalCreatedDto> {
    return this.preApprovals.create(partner, dto);
  }

  @Post(':id/acceptance')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept a variant (bank §2.6)',
    description: 'AWAITING_ACCEPTANCE; keep the participant ids and start signing each through the signing interface.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: AcceptPreApprovalResponseDto })
  @ApiProblems(404, { status: 409, code: 'INVALID_STATE', description: 'Already accepted, or expired' })
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
  @ApiProblems(404)
  status(@Param('id', ID) id: string, @CurrentPartner() partner: Partner): Promise<PreApprovalStatusDto> {
    return this.preApprovals.status(partner, id);
  }
}
