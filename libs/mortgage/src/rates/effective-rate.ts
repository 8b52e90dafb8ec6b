/**
 * The effective annual interest rate of Swedish consumer-credit practice (konsumentkreditlagen,
 * Konsumentverket's formula for "effektiv ränta"): the annual rate `i` at which the credit paid out
 * equals the present value of every payment, each discounted by (1 + i)^(t in years):
 *
 *   amount − setup_fee = Σ_{k=1..n} (annuity + monthly_fee) / (1 + i)^(k / 12)
 *
 * The annuity is the fixed monthly payment that repays `amount` over `n` months at the nominal rate
 * (compounded monthly). Rates are computed in floating point and rounded to two decimals for display:
 * they are ratios, not amounts of money.
 */
export interface CreditTerms {
  /** Credit in SEK. */
  amount: number;
  /** Nominal annual rate, percent (3.45 for 3.45 %). */
  nominalRatePercent: number;
  termMonths: number;
  /** Paid up front, reducing what the borrower receives. */
  setupFee?: number;
  /** Added to every monthly payment. */
  monthlyFee?: number;
}

/** The fixed monthly payment (interest and amortisation) that repays the credit over the term. */
export function annuity({ amount, nominalRatePercent, termMonths }: CreditTerms): number {
  const monthly = nominalRatePercent / 100 / 12;
  if (monthly === 0) return amount / termMonths;
  return (amount * monthly) / (1 - (1 + monthly) ** -termMonths);
}

/** The monthly payments of a credit: the annuity plus the monthly fee, every month of the term. */
export function paymentsOf(terms: CreditTerms): number[] {
  return new Array<number>(terms.termMonths).fill(annuity(terms) + (terms.monthlyFee ?? 0));
}

/** The effective annual rate in percent, unrounded. */
export function effectiveAnnualRate(terms: CreditTerms): number {
  return effectiveRateOf(terms.amount - (terms.setupFee ?? 0), paymentsOf(terms));
}

/**
 * The effective annual rate in percent of any schedule: `received` now, `payments[k-1]` at the end of
 * month k (several credits together: add their schedules month by month).
 */
export function effectiveRateOf(received: number, payments: number[]): number {
  // Nothing received (a setup fee of the whole credit) has no rate; the query refuses it first.
  if (!(received > 0)) throw new RangeError(`effective rate of a credit paying out ${received}`);
  const presentValue = (i: number) => payments.reduce((sum, payment, k) => sum + payment / (1 + i) ** ((k + 1) / 12), 0);
  // Present value falls towards 0 as the rate rises: widen [low, high] past the rate (beyond 1000 %
  // only for a fee near the whole credit), then bisect.
  let low = 0;
  let high = 10;
  while (presentValue(high) > received) {
    low = high;
    high *= 2;
  }
  for (let step = 0; step < 200 && high - low > 1e-12; step++) {
    const mid = (low + high) / 2;
    if (presentValue(mid) > received) low = mid;
    else high = mid;
  }
  return ((low + high) / 2) * 100;
}

/** Two decimals, as rates and öre are shown. */
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** What a borrower sees of a credit: the effective rate, the monthly payment with fees, the total; rounded to two decimals. */
export function quoteCredit(terms: CreditTerms): { effectiveRatePercent: number; monthlyPayment: number; totalPayable: number } {
  const monthly = annuity(terms) + (terms.monthlyFee ?? 0);
  return {
    effectiveRatePercent: round2(effectiveAnnualRate(terms)),
    monthlyPayment: round2(monthly),
    totalPayable: round2(monthly * terms.termMonths + (terms.setupFee ?? 0)),
  };
}
