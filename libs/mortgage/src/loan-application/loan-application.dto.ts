import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, NestedObjectArray, UUID, WHOLE_SEK } from '@app/common';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBase64, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ApplicantDto, SigningProcessDto } from '../pre-approval/pre-approval.dto';
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_TYPES, LOAN_APPLICATION_STATUSES, type LoanApplicationStatus } from './loan-application-status';

/** POST /api/loan-application/2.0/mortgages (contract §9). */
export class CreateLoanApplicationDto {
  @ApiProperty({ type: [ApplicantDto], minItems: 1, maxItems: 2, description: 'The main applicant first; only the main applicant must sign' })
  @IsArray()
  @ArrayMinSize(1, { message: 'applicants must have 1 or 2 entries' })
  @ArrayMaxSize(2, { message: 'applicants must have 1 or 2 entries' })
  @NestedObjectArray(() => ApplicantDto)
  applicants: ApplicantDto[];

  @ApiProperty({ ...WHOLE_SEK, minimum: 1, maximum: 1_000_000_000, example: 2500000 })
  @IsInt({ message: 'loan_amount must be a whole number of SEK' })
  @Min(1)
  @Max(1_000_000_000)
  loan_amount: number;
}

export class LoanApplicationStatusTypeDto {
  @ApiProperty({ enum: LOAN_APPLICATION_STATUSES })
  type: LoanApplicationStatus;
}

export class LoanApplicationCreatedDto {
  @ApiProperty(UUID)
  id: string;

  @ApiProperty({ type: LoanApplicationStatusTypeDto })
  status: LoanApplicationStatusTypeDto;
}

export class LoanApplicationStatusDto {
  @ApiProperty(UUID)
  id: string;

  @ApiProperty({ type: LoanApplicationStatusTypeDto })
  status: LoanApplicationStatusTypeDto;

  @ApiProperty({ type: SigningProcessDto })
  signing_process: SigningProcessDto;

  @ApiPropertyOptional({ example: 'LA-7K2M9Q4X', description: 'From PROCESSING on' })
  customer_service_reference?: string;
}

/** PUT …/{loan-application-id}/supplementary-documentation/{supplement-id}: a document the bank asked for. */
export class SupplementaryDocumentDto {
  @ApiProperty({ enum: DOCUMENT_TYPES })
  @IsIn(DOCUMENT_TYPES, { message: `document_type must be one of ${DOCUMENT_TYPES.join(', ')}` })
  document_type: (typeof DOCUMENT_TYPES)[number];

  @ApiProperty({ example: 'anstallningsbevis.pdf', minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000-\\u001f]+$', description: 'A file name without a path' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
  @Matches(/^[^/\\\u0000-\u001f]+$/, { message: 'file_name must be a file name without a path' })
  file_name: string;

  @ApiProperty({ enum: DOCUMENT_CONTENT_TYPES })
  @IsIn(DOCUMENT_CONTENT_TYPES, { message: `content_type must be one of ${DOCUMENT_CONTENT_TYPES.join(', ')}` })
  content_type: (typeof DOCUMENT_CONTENT_TYPES)[number];

  @ApiProperty({ format: 'byte', minLength: 4, example: 'JVBERi0xLjcK', description: 'The file, Base64 (the whole request at most 1 MB)' })
  @IsBase64(undefined, { message: 'content must be Base64' })
  @MinLength(4)
  content: string;
}

export class SupplementaryDocumentReceiptDto {
  @ApiProperty(UUID)
  supplement_id: string;

  @ApiProperty({ enum: DOCUMENT_TYPES })
  document_type: string;

  @ApiProperty({ example: 'anstallningsbevis.pdf' })
  file_name: string;

  @ApiProperty({ enum: DOCUMENT_CONTENT_TYPES })
  content_type: string;

  @ApiProperty({ example: 48213 })
  size_bytes: number;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex' })
  sha256: string;

  @ApiProperty({ ...INSTANT, example: '2026-11-24T09:00:05Z', description: 'UTC' })
  received_at: string;
}
