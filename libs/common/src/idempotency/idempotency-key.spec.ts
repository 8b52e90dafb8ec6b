import { DomainError } from '../errors/domain-error';
import { canonicalJson, IdempotencySecrets, readIdempotencyKey } from './idempotency-key';

describe('Idempotency-Key values and secrets (contract §15)', () => {
  it('takes 1 to 255 visible ASCII characters, and refuses anything else with VALIDATION_FAILED naming the header', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey('a')).toBe('a');
    expect(readIdempotencyKey('~'.repeat(255))).toBe('~'.repeat(255));
    for (const bad of ['', ' ', 'x'.repeat(256), 'two words', 'nøkkel', 'tab\there']) {
      expect(() => readIdempotencyKey(bad)).toThrow(DomainError);
      expect(() => readIdempotencyKey(bad)).toThrow(/Idempotency-Key/);
    }
  });

  it('writes bodies equal after parsing as the same canonical JSON: key order and whitespace do not matter, values do', () => {
    expect(canonicalJson(JSON.parse('{ "b": [1, {"y": 2, "x": 1}], "a": "s" }'))).toBe(canonicalJson({ a: 's', b: [1, { x: 1, y: 2 }] }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    // contract §2: a null member is an absent one; a null in a list is a value.
    expect(canonicalJson({ a: 1, statement: null })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: [null] })).not.toBe(canonicalJson({ a: [] }));
  });

  it('finds a record by a hash of sandbox, caller and key, and fingerprints requests under a key of the caller\'s', () => {
    const one = new IdempotencySecrets('default', 'tpp:PSDSE-1', 'key-1');
    const request = { method: 'POST', path: '/psd2/savings/3.0/accounts/1/transfers', body: { amount: 1 }, sandboxUser: undefined };
    expect(one.lookup).toEqual(new IdempotencySecrets('default', 'tpp:PSDSE-1', 'key-1').lookup);
    expect(one.lookup).not.toEqual(new IdempotencySecrets('default', 'tpp:PSDSE-2', 'key-1').lookup);
    expect(one.lookup).not.toEqual(new IdempotencySecrets('other', 'tpp:PSDSE-1', 'key-1').lookup);
    expect(one.fingerprint(request)).toEqual(new IdempotencySecrets('default', 'tpp:PSDSE-1', 'key-1').fingerprint(request));
    expect(one.fingerprint(request)).not.toEqual(one.fingerprint({ ...request, sandboxUser: '191212121212' }));
    expect(one.fingerprint(request)).not.toEqual(one.fingerprint({ ...request, method: 'PUT' }));
    expect(one.fingerprint(request)).not.toEqual(new IdempotencySecrets('default', 'tpp:PSDSE-2', 'key-1').fingerprint(request));
  });

  it('seals an answer that only the same key and caller open, and that holds nothing in clear', () => {
    const answer = { status: 201, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: Buffer.from('{"reference_id":"4b1c0d9e"}') };
    const sealed = new IdempotencySecrets('default', 'admin', 'key-1').seal(answer);
    expect(sealed.toString('latin1')).not.toContain('reference_id');
    expect(new IdempotencySecrets('default', 'admin', 'key-1').open(sealed)).toEqual(answer);
    expect(() => new IdempotencySecrets('default', 'admin', 'key-2').open(sealed)).toThrow();
    expect(() => new IdempotencySecrets('default', 'partner:p', 'key-1').open(sealed)).toThrow();
  });
});
