import { decimalPlaces, isDecimalNumber, parseQueryNumber } from './decimal-number';

describe('decimal places of a JSON number (contract §2: any JSON number form, the rules apply to the value)', () => {
  it.each([
    ['1e-7', 7],
    ['1E2', 0],
    ['0.1', 1],
    ['100.50', 1],
    ['-0', 0],
    ['1e308', 0],
    ['1.25e-3', 5],
    ['-12.34', 2],
    ['5e-324', 324],
    ['123456789012.99', 2],
  ])('%s has %i decimals', (json, places) => {
    expect(decimalPlaces(JSON.parse(json) as number)).toBe(places);
  });

  it('1e400 parses to Infinity, which has no decimal count and is no amount', () => {
    const value = JSON.parse('1e400') as number;
    expect(value).toBe(Infinity);
    expect(decimalPlaces(value)).toBeNull();
    expect(isDecimalNumber(value, 2)).toBe(false);
    expect(isDecimalNumber(-Infinity, 2)).toBe(false);
    expect(isDecimalNumber(NaN, 2)).toBe(false);
  });

  it('money allows at most two decimals: 1e-7 and 0.001 are refused, 1E2, 0.1, 100.50, -0 and 1e308 pass', () => {
    for (const ok of ['1E2', '0.1', '100.50', '-0', '1e308', '0.01']) expect(isDecimalNumber(JSON.parse(ok), 2)).toBe(true);
    for (const bad of ['1e-7', '0.001', '1.005']) expect(isDecimalNumber(JSON.parse(bad), 2)).toBe(false);
  });

  it('only numbers qualify: numeric text, booleans, null are not', () => {
    for (const value of ['1', true, null, undefined, {}, [1]]) expect(isDecimalNumber(value, 2)).toBe(false);
  });
});

describe('a number in a query value (contract §2: written as a JSON number is)', () => {
  it.each([
    ['12', 12],
    ['3.45', 3.45],
    ['-0.5', -0.5],
    ['1e2', 100],
    ['1E-2', 0.01],
    ['0', 0],
  ])('%s reads as %p', (text, value) => {
    expect(parseQueryNumber(text)).toBe(value);
  });

  it.each([[''], [' '], [' 12'], ['12 '], ['0x10'], ['0x0C'], ['0b1'], ['0o7'], ['012'], ['+1'], ['.5'], ['5.'], ['1_000'], ['Infinity'], ['NaN'], ['1e'], ['1,5']])(
    '%p is not a number',
    (text) => {
      expect(parseQueryNumber(text)).toBeNull();
    },
  );
});

