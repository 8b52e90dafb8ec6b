import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { hashSecret, newSecret, secretMatchesHash } from './secrets';

describe('secrets are stored as their SHA-256 and compared by it (developers\' guide: secrets stay secret)', () => {
  it('hashSecret is the hex SHA-256 of the value\'s UTF-8 bytes (FIPS 180-2 test vector)', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashSecret of any text equals a streamed SHA-256 of its UTF-8, lone surrogates included: stored hashes keep matching', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(hashSecret(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      }),
    );
  });

  it('secretMatchesHash accepts the value and refuses any other', () => {
    const secret = newSecret();
    expect(secretMatchesHash(secret, hashSecret(secret))).toBe(true);
    expect(secretMatchesHash(`${secret}x`, hashSecret(secret))).toBe(false);
    expect(secretMatchesHash(secret, 'not hex')).toBe(false);
  });
});
