import { createHmac } from 'node:crypto';
import { parseQrString, qrCodeMatches, qrString } from './qr-string';

describe('dynamic QR strings (contract §4)', () => {
  const token = '0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11';
  const secret = 'ab'.repeat(32);
  const start = new Date('2026-11-24T09:00:00Z');

  it('is eid.<qr_start_token>.<t>.<hex HMAC-SHA256 of the decimal t keyed with the secret>', () => {
    const text = qrString(token, secret, start, new Date(start.getTime() + 7900));
    const expected = createHmac('sha256', Buffer.from(secret, 'hex')).update('7').digest('hex');
    expect(text).toBe(`eid.${token}.7.${expected}`);
  });

  it('changes every second', () => {
    expect(qrString(token, secret, start, new Date(start.getTime() + 1000))).not.toBe(qrString(token, secret, start, new Date(start.getTime() + 2000)));
  });

  it('parses back and verifies only with the right secret', () => {
    const parsed = parseQrString(qrString(token, secret, start, new Date(start.getTime() + 3000)))!;
    expect(parsed).toMatchObject({ qrStartToken: token, t: 3 });
    expect(qrCodeMatches(parsed, secret)).toBe(true);
    expect(qrCodeMatches(parsed, 'cd'.repeat(32))).toBe(false);
    expect(parseQrString('eid.nope')).toBeNull();
  });
});
