import { generateOffer } from './offer';

describe('pre-approval offers (contract §9 variants)', () => {
  it('without an unsecured loan: one variant at the mortgage rate', () => {
    expect(generateOffer(2_000_000)).toEqual({
      without_unsecured_loan: { loan_amount: 2_000_000, unsecured_loan_amount: 0, interest_rate: 3.45, effective_interest_rate: 3.51, monthly_cost: 7000.37 },
    });
  });

  it('with an unsecured loan: a second variant whose rates and cost include it', () => {
    const offer = generateOffer(2_000_000, 100_000);
    expect(offer.without_unsecured_loan.unsecured_loan_amount).toBe(0);
    const withUnsecured = offer.with_unsecured_loan!;
    expect(withUnsecured).toMatchObject({ loan_amount: 2_000_000, unsecured_loan_amount: 100_000, interest_rate: 3.66 });
    expect(withUnsecured.effective_interest_rate).toBeGreaterThan(offer.without_unsecured_loan.effective_interest_rate);
    expect(withUnsecured.monthly_cost).toBeGreaterThan(offer.without_unsecured_loan.monthly_cost + 1000);
  });
});
