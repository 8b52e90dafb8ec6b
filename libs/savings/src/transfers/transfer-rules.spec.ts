import { isLatin1, recipientKind } from './transfer-rules';

describe('transfer text and recipient rules (bank §2.7, contract §10)', () => {
  it('accepts ISO 8859-1 text, Swedish letters included, and refuses anything beyond it', () => {
    expect(isLatin1('Åsa Öberg, Ärlig & Co. ½ ©')).toBe(true);
    expect(isLatin1('Zoë Łukasz')).toBe(false);
    expect(isLatin1('hyra 🏠')).toBe(false);
    expect(isLatin1('€')).toBe(false);
  });

  it('knows account numbers (digits only) and bankgiro numbers with a valid check digit', () => {
    expect(recipientKind('92501234567')).toBe('account');
    expect(recipientKind('5050-1055')).toBe('bankgiro');
    expect(recipientKind('123-4566')).toBe('bankgiro');
    expect(recipientKind('5050-1056')).toBeNull();
    expect(recipientKind('9250-1234567')).toBeNull();
    expect(recipientKind('1234')).toBeNull();
  });
});
