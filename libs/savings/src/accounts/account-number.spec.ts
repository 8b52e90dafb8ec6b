import { generateAccountNumber, hasValidCheckDigit, SANDBOX_CLEARING_NUMBER } from './account-number';

describe('account numbers (contract §10: clearing + account, digits only)', () => {
  it('generates 11 digits at the sandbox clearing number with a valid mod-11 check digit', () => {
    for (let i = 0; i < 200; i++) {
      const number = generateAccountNumber();
      expect(number).toMatch(/^\d{11}$/);
      expect(number.startsWith(SANDBOX_CLEARING_NUMBER)).toBe(true);
      expect(hasValidCheckDigit(number)).toBe(true);
    }
  });

  it('rejects a wrong check digit', () => {
    const number = generateAccountNumber();
    const wrong = number.slice(0, 10) + ((Number(number[10]) + 1) % 10);
    expect(hasValidCheckDigit(wrong)).toBe(false);
  });
});
