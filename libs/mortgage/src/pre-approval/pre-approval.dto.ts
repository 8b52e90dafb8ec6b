import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, NestedObjectArray, PERSONAL_NUMBER, PERSONAL_NUMBER_INPUT, UUID, WHOLE_SEK } from '@app/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PRE_APPROVAL_STATUSES, type PreApprovalStatus } from './pre-approval-status';

const MAX_SEK = 1_000_000_000;

export class ApplicantDto {
  @ApiProperty({ ...PERSONAL_NUMBER_INPUT, description: 'A sandbox user: YYYYMMDDNNNC (or YYMMDD-NNNC / YYMMDD+NNNC)' })
  @IsString()
  personal_number: string;

  @ApiProperty({ ...WHOLE_SEK, maximum: MAX_SEK, example: 800000, description: 'Whole SEK a year' })
  @IsInt({ message: 'yearly_income must be a whole number of SEK' })
  @Min(0)
  @Max(MAX_SEK)
  yearly_income: number;
}

/** POST /mortgage/2.0/pre-approval (contract §9). */
export class CreatePreApprovalDto {
  @ApiProperty({ type: [ApplicantDto], minItems: 1, maxItems: 2 })
  @IsArray()
  @ArrayMinSize(1, { message: 'applicants must have 1 or 2 entries' })
  @ArrayMaxSize(2, { message: 'applicants must have 1 or 2 entries' })
  @NestedObjectArray(() => ApplicantDto)
  applicants: ApplicantDto[];

  @ApiProperty({ ...WHOLE_SEK, minimum: 1, maximum: MAX_SEK })
  @IsInt({ message: 'loan_amount must be a whole number of SEK' })
  @Min(1)
  @Max(MAX_SEK)
  loan_amount: number;

  @ApiPropertyOptional({ ...WHOLE_SEK, minimum: 1, maximum: MAX_SEK, example: 100000, description: 'Whole SEK; asks for a second variant with an unsecured loan' })
  @IsOptional()
  @IsInt({ message: 'unsecured_loan_amount must be a whole number of SEK' })
  @Min(1)
  @Max(MAX_SEK)
  unsecured_loan_amount?: number;
}

export class StatusTypeDto {
  @ApiProperty({ enum: PRE_APPROVAL_STATUSES })
  type: PreApprovalStatus;
}

export class OfferVariantDto {
  @ApiProperty(WHOLE_SEK)
  loan_amount: number;

  @ApiProperty({ ...WHOLE_SEK, example: 0, description: 'Whole SEK; 0 in the variant without one' })
  unsecured_loan_amount: number;

  @ApiProperty({ example: 3.45, description: 'Nominal annual rate, percent (weighted by amount)' })
  interest_rate: number;

  @ApiProperty({ example: 3.51, description: 'Effective annual rate, percent, of all payments and fees' })
  effective_interest_rate: number;

  @ApiProperty({ example: 7000.37, description: 'SEK: the first month\'s payment of all credits with fees' })
  monthly_cost: number;
}

export class OfferDto {
  @ApiProperty({ type: OfferVariantDto })
  without_unsecured_loan: OfferVariantDto;

  @ApiPropertyOptional({ type: OfferVariantDto, description: 'Only when an unsecured loan was asked for' })
  with_unsecured_loan?: OfferVariantDto;
}

export class PreApprovalCreatedDto {
  @ApiProperty(UUID)
  id: string;

  @ApiProperty({ type: StatusTypeDto })
  status: StatusTypeDto;

  @ApiProperty({ type: OfferDto })
  offer: OfferDto;

  @ApiProperty({ ...INSTANT, example: '2026-12-24T09:00:00Z', description: 'UTC, 30 days after creation' })
  expiry_date: string;
}

/** POST …/{id}/acceptance (contract §9). */
export class AcceptPreApprovalDto {
  @ApiProperty({ description: 'Accept the variant with the unsecured loan (400 when none was offered)' })
  @IsBoolean()
  with_unsecured_loan: boolean;
}

export class AcceptedParticipantDto {
  @ApiProperty(PERSONAL_NUMBER)
  personal_number: string;

  @ApiProperty({ ...UUID, description: 'The participant_id of the signing interface' })
  id: string;
}

export class AcceptedSigningProcessDto {
  @ApiProperty({ type: [AcceptedParticipantDto] })
  participants: AcceptedParticipantDto[];
}

/** Bank §2.6 AcceptPreApprovalResponseV2. */
export class AcceptPreApprovalResponseDto {
  @ApiProperty({ enum: ['AWAITING_ACCEPTANCE'], description: 'A plain string' })
  status: 'AWAITING_ACCEPTANCE';

  @ApiProperty({ type: AcceptedSigningProcessDto })
  signing_process: AcceptedSigningProcessDto;

  @ApiProperty({ ...INSTANT, example: '2026-12-24T09:00:00Z', description: 'UTC' })
  expiry_date: string;
}

export class StatusParticipantDto extends AcceptedParticipantDto {
  @ApiProperty({ description: 'The participant has signed with eid' })
  signed: boolean;

  @ApiPropertyOptional({ ...INSTANT, example: '2026-11-24T09:00:05Z', description: 'UTC, once signed' })
  signed_at?: string;
}

export class SigningProcessDto {
  @ApiProperty({ type: [StatusParticipantDto] })
  participants: StatusParticipantDto[];
}

/** Bank §2.6 PreApprovalStatusDataV2. */
export class PreApprovalStatusDto {
  @ApiProperty({ type: SigningProcessDto })
  signing_process: SigningProcessDto;

  @ApiProperty({ type: StatusTypeDto })
  status: StatusTypeDto;

  @ApiPropertyOptional({ example: 'PA-7K2M9Q4X', description: 'From PROCESSING on' })
  customer_service_reference?: string;

  @ApiProperty({ ...INSTANT, example: '2026-12-24T09:00:00Z', description: 'UTC' })
  expiry_date: string;
}
