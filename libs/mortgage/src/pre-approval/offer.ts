import { annuity, type CreditTerms, effectiveRateOf, paymentsOf, round2 } from '../rates/effective-rate';

/**
 * The sandbox's price list for pre-approval offers (contract §9 leaves it to us): a 50-year annuity
 * mortgage without fees, and a 12-year unsecured loan with a setup fee and a monthly notice fee, as
 * Swedish lenders price them.
 */
export const MORTGAGE_TERMS = { nominalRatePercent: 3.45, termMonths: 600, setupFee: 0, monthlyFee: 0 } as const;
export const UNSECURED_TERMS = { nominalRatePercent: 7.95, termMonths: 144, setupFee: 495, monthlyFee: 25 } as const;

/** A variant of contract §9. Amounts in whole SEK; rates in percent; monthly_cost in SEK to the öre. */
export interface OfferVariant {
  loan_amount: number;
  unsecured_loan_amount: number;
  interest_rate: number;
  effective_interest_rate: number;
  monthly_cost: number;
}

export interface Offer {
  without_unsecured_loan: OfferVariant;
  with_unsecured_loan?: OfferVariant;
}

export function generateOffer(loanAmount: number, unsecuredLoanAmount?: number): Offer {
  return {
    without_unsecured_loan: variant(loanAmount, 0),
    ...(unsecuredLoanAmount ? { with_unsecured_loan: variant(loanAmount, unsecuredLoanAmount) } : {}),
  };
}

/**
 * interest_rate: the nominal rate weighted by amount; effective_interest_rate: of both credits'
 * payments together (contract §9 "effective interest rate"); monthly_cost: the first month's payment.
 */
function variant(loan: number, unsecured: number): OfferVariant {
  const mortgage: CreditTerms = { amount: loan, ...MORTGAGE_TERMS };
  const credits: CreditTerms[] = unsecured > 0 ? [mortgage, { amount: unsecured, ...UNSECURED_TERMS }] : [mortgage];
  const months = Math.max(...credits.map((c) => c.termMonths));
  const payments = new Array<number>(months).fill(0);
  for (const credit of credits) paymentsOf(credit).forEach((payment, k) => (payments[k] += payment));
  const received = credits.reduce((sum, c) => sum + c.amount - (c.setupFee ?? 0), 0);
  const weightedNominal = credits.reduce((sum, c) => sum + c.amount * c.nominalRatePercent, 0) / (loan + unsecured);
  return {
    loan_amount: loan,
    unsecured_loan_amount: unsecured,
    interest_rate: round2(weightedNominal),
    effective_interest_rate: round2(effectiveRateOf(received, payments)),
    monthly_cost: round2(credits.reduce((sum, c) => sum + annuity(c) + (c.monthlyFee ?? 0), 0)),
  };
}
