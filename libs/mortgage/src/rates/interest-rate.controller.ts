import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { API_TAG, ApiInterface, ApiProblems, IsDecimalNumber, QueryNumber } from '@app/common';
import { PartnerAuth } from '@app/directory';
import { quoteCredit } from './effective-rate';

const MAX_AMOUNT_SEK = 1_000_000_000;

/** How every number of the query is read (contract §2): written as a JSON number is, else 400 naming it. */
const NUMBER_TEXT = 'Written as a JSON number (1e2 allowed; no hex, blanks or empty value)';

// The credit paid out is loan_amount − setup_fee; a fee of the whole credit leaves nothing for a rate to be paid on.
const BelowLoanAmount = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isBelowLoanAmount',
      validator: {
        validate: (fee: unknown, args) => {
          const loan = (args?.object as EffectiveRateQueryDto).loan_amount;
          return typeof fee !== 'number' || typeof loan !== 'number' || fee < loan;
        },
      },
    },
    options,
  );

/** GET /api/interest-rates/2.0/effective-interest-rate (bank §9 rule 7): the query. */
export class EffectiveRateQueryDto {
  @ApiProperty({ type: Number, minimum: 0, maximum: 100, multipleOf: 0.0001, example: 3.45, description: `Nominal annual rate, percent. ${NUMBER_TEXT}` })
  @QueryNumber()
  @IsDecimalNumber(4, { message: 'nominal_interest_rate must be a number of percent with at most four decimals' })
  @Min(0)
  @Max(100)
  nominal_interest_rate: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT_SEK, example: 2000000, description: `Credit, whole SEK. ${NUMBER_TEXT}` })
  @QueryNumber()
  @IsInt({ message: 'loan_amount must be a whole number of SEK' })
  @Min(1)
  @Max(MAX_AMOUNT_SEK)
  loan_amount: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1200, example: 600, description: `Term in months (annuity, monthly payments). ${NUMBER_TEXT}` })
  @QueryNumber()
  @IsInt({ message: 'term_months must be a whole number of months' })
  @Min(1)
  @Max(1200)
  term_months: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    multipleOf: 0.01,
    example: 0,
    description: `Paid up front, SEK (at most two decimals); less than loan_amount, since the credit paid out is loan_amount − setup_fee (else 400 naming setup_fee). ${NUMBER_TEXT}`,
  })
  @IsOptional()
  @QueryNumber()
  @IsDecimalNumber(2, { message: 'setup_fee must be an amount of SEK with at most two decimals' })
  @Min(0)
  @BelowLoanAmount({ message: 'setup_fee must be less than loan_amount (the credit paid out is loan_amount − setup_fee)' })
  setup_fee?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: MAX_AMOUNT_SEK,
    multipleOf: 0.01,
    example: 0,
    description: `Added to every monthly payment, SEK (at most two decimals). ${NUMBER_TEXT}`,
  })
  @IsOptional()
  @QueryNumber()
  @IsDecimalNumber(2, { message: 'monthly_fee must be an amount of SEK with at most two decimals' })
  @Min(0)
  @Max(MAX_AMOUNT_SEK)
  monthly_fee?: number;
}

export class EffectiveRateDto {
  @ApiProperty({ example: 3.45, description: 'Percent, as asked' })
  nominal_interest_rate: number;

  @ApiProperty({ example: 3.51, description: 'Percent, two decimals' })
  effective_interest_rate: number;

  @ApiProperty({ example: 7000.37, description: 'SEK per month, fees included' })
  monthly_payment: number;

  @ApiProperty({ example: 4200220.58, description: 'SEK over the whole term, fees included' })
  total_amount_payable: number;
}

@ApiInterface(API_TAG.mortgage)
@PartnerAuth()
@ApiProblems(
  { status: 400, description: 'A missing or malformed query parameter: not written as a JSON number, out of range, or a setup_fee not below loan_amount (VALIDATION_FAILED names it)' },
  { status: 401, description: 'No Authorization: Bearer <partner api key or enterprise client-credentials token>, or an unknown one, or an enterprise token presented with another client certificate or on the other port than it was obtained (error="invalid_token", contract §16); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' },
)
@Controller(['api/interest-rates/2.0', 'partner/api/interest-rates/2.0'])
export class InterestRateController {
  @Get('effective-interest-rate')
  @ApiOperation({
    summary: 'The effective annual interest rate of a credit (bank §9 rule 7)',
    description:
      'Swedish consumer-credit convention: the annual rate i at which loan_amount − setup_fee equals the present value of every ' +
      'monthly payment (annuity at the nominal rate + monthly_fee), each discounted by (1 + i)^(months / 12). ' +
      'Every parameter is a number written as in JSON (1e2 allowed; hex, blanks or an empty value are 400 naming it). ' +
      'setup_fee must be less than loan_amount; the rate is not capped (a fee near the whole credit gives a very high one).',
  })
  @ApiOkResponse({ type: EffectiveRateDto })
  effectiveRate(@Query() query: EffectiveRateQueryDto): EffectiveRateDto {
    const quote = quoteCredit({
      amount: query.loan_amount,
      nominalRatePercent: query.nominal_interest_rate,
      termMonths: query.term_months,
      setupFee: query.setup_fee ?? 0,
      monthlyFee: query.monthly_fee ?? 0,
    });
    return {
      nominal_interest_rate: query.nominal_interest_rate,
      effective_interest_rate: quote.effectiveRatePercent,
      monthly_payment: quote.monthlyPayment,
      total_amount_payable: quote.totalPayable,
    };
  }
}
