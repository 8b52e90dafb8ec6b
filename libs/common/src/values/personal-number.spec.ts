import { isValidTwelveDigits, parsePersonalNumber } from './personal-number';

const AT_2026 = new Date('2026-11-24T09:00:00Z');

describe('personal numbers (contract §4)', () => {
  it('accepts a real date with a valid check digit, the serial 000 included', () => {
    expect(isValidTwelveDigits('191212121212')).toBe(true);
    expect(isValidTwelveDigits('199001010009')).toBe(true);
    expect(isValidTwelveDigits('195002290004')).toBe(false); // 1950 was no leap year
    expect(isValidTwelveDigits('191212121213')).toBe(false);
    expect(isValidTwelveDigits('199013010000')).toBe(false);
  });

  it('accepts coordination numbers (day + 60)', () => {
    expect(isValidTwelveDigits('197010632391')).toBe(true);
  });

  it('reads the 10-digit forms with the century from the given date', () => {
    expect(parsePersonalNumber('121212-1212', AT_2026)).toBe('201212121212');
    expect(parsePersonalNumber('121212+1212', AT_2026)).toBe('191212121212');
    expect(parsePersonalNumber('19121212-1212', AT_2026)).toBe('191212121212');
    expect(parsePersonalNumber('271212-1212', AT_2026)).toBeNull();
  });
});
