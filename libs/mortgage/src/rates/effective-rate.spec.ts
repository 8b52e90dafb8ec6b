import { annuity, effectiveAnnualRate, effectiveRateOf, paymentsOf, round2 } from './effective-rate';

describe('effective annual interest rate (Swedish consumer-credit convention)', () => {
  it('without fees is the monthly compounding of the nominal rate: 12 % → 12.68 %', () => {
    expect(round2(effectiveAnnualRate({ amount: 100_000, nominalRatePercent: 12, termMonths: 60 }))).toBe(12.68);
  });

  it('a 50-year mortgage at 3.45 % without fees → 3.51 %, paying 7 000.37 SEK a month on 2 000 000', () => {
    const terms = { amount: 2_000_000, nominalRatePercent: 3.45, termMonths: 600 };
    expect(round2(annuity(terms))).toBe(7000.37);
    expect(round2(effectiveAnnualRate(terms))).toBe(3.51);
  });

  it('fees raise it: 100 000 SEK over 5 years at 6 % with a 500 SEK setup fee and 30 SEK a month → 7.07 %', () => {
    const terms = { amount: 100_000, nominalRatePercent: 6, termMonths: 60, setupFee: 500, monthlyFee: 30 };
    expect(round2(annuity(terms))).toBe(1933.28);
    expect(round2(effectiveAnnualRate(terms))).toBe(7.07);
  });

  it('a zero nominal rate with no fees is zero; with fees it is positive', () => {
    expect(round2(effectiveAnnualRate({ amount: 12_000, nominalRatePercent: 0, termMonths: 12 }))).toBe(0);
    expect(effectiveAnnualRate({ amount: 12_000, nominalRatePercent: 0, termMonths: 12, monthlyFee: 10 })).toBeGreaterThan(1.5);
  });

  it('is not capped: a setup fee of nearly the whole credit gives the rate that solves the equation, far above 1000 %', () => {
    const terms = { amount: 100_000, nominalRatePercent: 6, termMonths: 60, setupFee: 99_000 };
    const rate = effectiveAnnualRate(terms) / 100;
    expect(rate).toBeGreaterThan(10);
    const presentValue = paymentsOf(terms).reduce((sum, payment, k) => sum + payment / (1 + rate) ** ((k + 1) / 12), 0);
    expect(presentValue).toBeCloseTo(1_000, 6);
  });

  it('is not defined when nothing is paid out', () => {
    expect(() => effectiveRateOf(0, [100])).toThrow(RangeError);
  });
});
