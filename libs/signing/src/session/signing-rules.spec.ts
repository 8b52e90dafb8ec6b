import { decide } from './signing-rules';

describe('signing rules of bank §7.2 (contract §11 table)', () => {
  const A = '192.0.2.1';
  const B = '192.0.2.2';

  it('nothing open: start and start/phone start a new order', () => {
    expect(decide(null, { kind: 'start', ip: A })).toEqual({ outcome: 'start' });
    expect(decide(null, { kind: 'phone', ip: A })).toEqual({ outcome: 'start' });
  });

  it('start from A, start from A: 409 arming the retry; armed, the next one replaces the order', () => {
    expect(decide({ kind: 'start', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'start', ip: A })).toEqual({ outcome: 'refuse', armRetry: true });
    expect(decide({ kind: 'start', ip: A, retryArmed: true, outlivedBlock: false }, { kind: 'start', ip: A })).toEqual({ outcome: 'replace' });
  });

  it('start from A, start from B: 409 and blocked 180 s', () => {
    expect(decide({ kind: 'start', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'start', ip: B })).toEqual({ outcome: 'refuse', blockSeconds: 180 });
    expect(decide({ kind: 'start', ip: A, retryArmed: true, outlivedBlock: false }, { kind: 'start', ip: B })).toEqual({ outcome: 'refuse', blockSeconds: 180 });
  });

  it('phone, phone: 409 and blocked 60 s, from any IP', () => {
    expect(decide({ kind: 'phone', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'phone', ip: A })).toEqual({ outcome: 'refuse', blockSeconds: 60 });
    expect(decide({ kind: 'phone', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'phone', ip: B })).toEqual({ outcome: 'refuse', blockSeconds: 60 });
  });

  it('start then phone, or phone then start: 409 without a block', () => {
    expect(decide({ kind: 'start', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'phone', ip: A })).toEqual({ outcome: 'refuse' });
    expect(decide({ kind: 'phone', ip: A, retryArmed: false, outlivedBlock: false }, { kind: 'start', ip: A })).toEqual({ outcome: 'refuse' });
  });

  it('an order still open when its block ended: the first call after it replaces the order, whatever the kinds (a call at block end succeeds)', () => {
    for (const kind of ['start', 'phone'] as const) {
      for (const call of ['start', 'phone'] as const) {
        expect(decide({ kind, ip: A, retryArmed: false, outlivedBlock: true }, { kind: call, ip: B })).toEqual({ outcome: 'replace' });
      }
    }
  });
});
