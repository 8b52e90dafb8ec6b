import { formatDuration, parseDuration } from './duration';

describe('command-line durations (clock advance)', () => {
  it.each([
    ['90', 90],
    ['0', 0],
    ['0.5', 0.5],
    ['90s', 90],
    ['30m', 1800],
    ['2h', 7200],
    ['1d', 86_400],
    ['1w', 604_800],
    ['1h30m', 5400],
    ['1d2h3m4s', 93_784],
    ['1.5h', 5400],
    [' 2H ', 7200],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([[''], ['-5'], ['-5m'], ['5x'], ['m'], ['1h 30m'], ['1e3'], ['soon'], ['30mm'], ['.5m']])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  it.each([
    [0, '0s'],
    [90, '1m30s'],
    [1800, '30m'],
    [5400, '1h30m'],
    [90_061.5, '1d1h1m1.5s'],
  ])('writes %d seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
