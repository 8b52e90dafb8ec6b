import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_TAG, ApiInterface, ApiProblems, UuidPipe, Idempotent } from '@app/common';
import { CurrentPartner, type Partner, PartnerAuth } from '@app/directory';
import {
  CreateLoanApplicationDto,
  LoanApplicationCreatedDto,
  LoanApplicationStatusDto,
  SupplementaryDocumentDto,
  SupplementaryDocumentReceiptDto,
} from './loan-application.dto';
import { type LoanApplicationReader, LoanApplicationService } from './loan-application.service';
import { CurrentLoanReader, LoanReader } from './loan-reader.strategy';

const APPLICATION = new UuidPipe('loan-application-id');
const APPLICATION_PARAM = {
  name: 'loanApplicationId',
  format: 'uuid',
  description: 'The loan-application-id segment: the id from POST /api/loan-application/2.0/mortgages',
};
const NOT_NOW = { status: 409, code: 'INVALID_STATE' as const, description: 'The application is past the state this needs' };
const NO_APPLICATION = { status: 404, description: 'No loan application with this id that the caller may see' };

/** Loan applications 2.0 (bank §9 rule 6; contract §9), also under /partner (contract §1). */
@ApiInterface(API_TAG.mortgage)
@PartnerAuth()
@ApiProblems(
  { status: 400, description: 'A missing or malformed field or path segment, or an applicant who is not a sandbox user (VALIDATION_FAILED names it)' },
  { status: 401, description: 'No Authorization: Bearer <partner api key or enterprise client-credentials token>, or an unknown one, or an enterprise token presented with another client certificate or on the other port than it was obtained (error="invalid_token", contract §16); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
)
@Controller(['api/loan-application/2.0/mortgages', 'partner/api/loan-application/2.0/mortgages'])
export class LoanApplicationController {
  constructor(private readonly applications: LoanApplicationService) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    summary: 'Apply for a mortgage loan (contract §9)',
    description: 'The main applicant first; the applicants become signing participants. The main applicant\'s signature submits it (PROCESSING); a decision follows.',
  })
  @ApiCreatedResponse({ type: LoanApplicationCreatedDto })
  @ApiProblems(413)
  create(@Body() dto: CreateLoanApplicationDto, @CurrentPartner() partner: Partner): Promise<LoanApplicationCreatedDto> {
    return this.applications.create(partner, dto);
  }

  @Put('sign-bankid/:loanApplicationId/participant/:participantId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sandbox only: simulate a participant\'s signature', description: 'As if the participant had signed with eid.' })
  @ApiParam(APPLICATION_PARAM)
  @ApiParam({ name: 'participantId', format: 'uuid', description: 'The participant-id segment: signing_process.participants[n].id' })
  @ApiNoContentResponse()
  @ApiProblems({ status: 404, description: 'No such loan application of this partner, or no such participant of it' }, NOT_NOW)
  async signBankId(
    @Param('loanApplicationId', APPLICATION) id: string,
    @Param('participantId', new UuidPipe('participant-id')) participantId: string,
    @CurrentPartner() partner: Partner,
  ): Promise<void> {
    await this.applications.signNow(partner, id, participantId);
  }

  @Get('status/:loanApplicationId')
  @LoanReader()
  @ApiOperation({
    summary: 'Status of a loan application',
    description: 'With signing_process.participants[] (bank §2.5). Readable by its partner, and by an applicant\'s enterprise end-user token with loan.read (bank §4.6).',
  })
  @ApiParam(APPLICATION_PARAM)
  @ApiOkResponse({ type: LoanApplicationStatusDto })
  @ApiProblems({ status: 403, code: 'SCOPE_NOT_GRANTED', description: 'An end-user token without loan.read' }, NO_APPLICATION)
  status(@Param('loanApplicationId', APPLICATION) id: string, @CurrentLoanReader() reader: LoanApplicationReader): Promise<LoanApplicationStatusDto> {
    return this.applications.status(reader, id);
  }

  @Delete(':loanApplicationId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Withdraw a loan application', description: 'Until it is decided; afterwards it is gone (404).' })
  @ApiParam(APPLICATION_PARAM)
  @ApiNoContentResponse()
  @ApiProblems(NO_APPLICATION, NOT_NOW)
  async withdraw(@Param('loanApplicationId', APPLICATION) id: string, @CurrentPartner() partner: Partner): Promise<void> {
    await this.applications.withdraw(partner, id);
  }

  @Put(':loanApplicationId/supplementary-documentation/:supplementId')
  @ApiOperation({
    summary: 'Send a supplementary document (201 new, 200 replaced)',
    description: 'The supplement id is yours (a UUID): sending it again replaces the document. Until the application is decided.',
  })
  @ApiParam(APPLICATION_PARAM)
  @ApiParam({ name: 'supplementId', format: 'uuid', description: 'The supplement-id segment: a UUID of your choosing; sending it again replaces the document' })
  @ApiCreatedResponse({ type: SupplementaryDocumentReceiptDto, description: 'Received' })
  @ApiOkResponse({ type: SupplementaryDocumentReceiptDto, description: 'Replaced' })
  @ApiProblems(NO_APPLICATION, NOT_NOW, 413)
  async putSupplement(
    @Param('loanApplicationId', APPLICATION) id: string,
    @Param('supplementId', new UuidPipe('supplement-id')) supplementId: string,
    @Body() dto: SupplementaryDocumentDto,
    @CurrentPartner() partner: Partner,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SupplementaryDocumentReceiptDto> {
    const { receipt, created } = await this.applications.putSupplement(partner, id, supplementId, dto);
    response.status(created ? 201 : 200);
    return receipt;
  }
}
