import { hashSecret } from '@app/common';
import { expect } from '@jest/globals';
import type { EidBehaviour } from '../eid-catalogue';
import { EidOrderEntity } from './eid-order.entity';
import type { EidChannel, EidOrderKind } from './eid-order-status';

const T0 = new Date('2026-11-24T09:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function started(behaviour: EidBehaviour, kind: EidOrderKind = 'authentication', channel: EidChannel = 'app') {
  return EidOrderEntity.start({ kind, channel, personalNumber: '191212121212', behaviour, requestedBy: 'test' }, T0);
}
const order = (...args: Parameters<typeof started>) => started(...args).order;
const state = (o: EidOrderEntity) => ({ status: o.status, hint: o.hintCode });

describe(EidOrderEntity.name, () => {
  describe('start (contract §4)', () => {
    it('starts an app order PENDING OUTSTANDING_TRANSACTION and a phone order INITIATED without hint', () => {
      expect(state(order('MANUAL'))).toEqual({ status: 'PENDING', hint: 'OUTSTANDING_TRANSACTION' });
      expect(state(order('MANUAL', 'signing', 'phone'))).toEqual({ status: 'INITIATED', hint: null });
    });

    it('gives every order its own autostart token, QR token and secret', () => {
      const a = started('MANUAL');
      const b = started('MANUAL');
      expect(new Set([a.autostartToken, b.autostartToken, a.order.qrStartToken, b.order.qrStartToken]).size).toBe(4);
      expect(a.order.qrStartSecret).toMatch(/^[0-9a-f]{64}$/);
    });

    it('keeps only the SHA-256 of the autostart token (issue 13: secrets stored hashed)', () => {
      const { order: o, autostartToken } = started('MANUAL');
      expect(o.autostartTokenHash).toBe(hashSecret(autostartToken));
      expect(JSON.stringify(o)).not.toContain(autostartToken);
    });
  });

  describe('behaviours when polled (contract §4)', () => {
    it('AUTO_COMPLETE completes on the first poll', () => {
      const o = order('AUTO_COMPLETE');
      expect(o.applyBehaviour(at(1))).toBe(true);
      expect(state(o)).toEqual({ status: 'COMPLETE', hint: null });
    });

    it('FAIL:<hint> fails with that hint on the first poll', () => {
      const o = order('FAIL:USER_CANCEL');
      o.applyBehaviour(at(1));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'USER_CANCEL' });
    });

    it('COLLECT_ERROR ends a signing with COLLECT_ERROR and an authentication with FAILED UNKNOWN', () => {
      const signing = order('COLLECT_ERROR', 'signing');
      signing.applyBehaviour(at(1));
      expect(state(signing)).toEqual({ status: 'COLLECT_ERROR', hint: null });
      const authentication = order('COLLECT_ERROR');
      authentication.applyBehaviour(at(1));
      expect(state(authentication)).toEqual({ status: 'FAILED', hint: 'UNKNOWN' });
    });

    it.each([['MANUAL'], ['NO_RESPONSE']] as const)('%s stays PENDING OUTSTANDING_TRANSACTION', (behaviour) => {
      const o = order(behaviour);
      expect(o.applyBehaviour(at(29))).toBe(false);
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'OUTSTANDING_TRANSACTION' });
    });

    it('a finished order keeps its final state on every later read', () => {
      const o = order('AUTO_COMPLETE');
      o.applyBehaviour(at(1));
      expect(o.applyBehaviour(at(500))).toBe(false);
      expect(state(o)).toEqual({ status: 'COMPLETE', hint: null });
    });
  });

  describe('time rules, in their order (contract §4, bank §3.1, §8)', () => {
    it.each([['MANUAL'], ['NO_RESPONSE']] as const)('%s: not opened within 30 s → FAILED START_FAILED at 30 s, not at 29 s', (behaviour) => {
      const o = order(behaviour);
      expect(o.applyTimeRules(at(29.999))).toBe(false);
      expect(o.applyTimeRules(at(30))).toBe(true);
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'START_FAILED' });
    });

    it('an order opened in time but not finished → FAILED EXPIRED_TRANSACTION at 3 minutes', () => {
      const o = order('MANUAL');
      o.open(at(10));
      expect(o.applyTimeRules(at(179.999))).toBe(false);
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'USER_SIGN' });
      o.applyTimeRules(at(180));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'EXPIRED_TRANSACTION' });
    });

    it('AUTO_COMPLETE opens at once: a first poll after 3 minutes is EXPIRED_TRANSACTION, not START_FAILED', () => {
      const o = order('AUTO_COMPLETE');
      o.applyBehaviour(at(181));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'EXPIRED_TRANSACTION' });
    });

    it('the 30-second rule comes before the 3-minute rule for an order never opened', () => {
      const o = order('NO_RESPONSE');
      o.applyTimeRules(at(600));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'START_FAILED' });
    });

    it('time rules come before the behaviour', () => {
      const o = order('MANUAL');
      o.applyBehaviour(at(45));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'START_FAILED' });
    });
  });

  describe('the app (simulator actions, contract §4)', () => {
    it('open sets USER_SIGN and meets the 30-second rule', () => {
      const o = order('MANUAL');
      o.open(at(5));
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'USER_SIGN' });
      expect(o.applyTimeRules(at(60))).toBe(false);
    });

    it('open of an authentication may name another user', () => {
      const o = order('MANUAL');
      o.open(at(5), '198112189876');
      expect(o.personalNumber).toBe('198112189876');
    });

    it('complete and fail finish an open order', () => {
      const a = order('MANUAL');
      a.complete(at(5));
      expect(state(a)).toEqual({ status: 'COMPLETE', hint: null });
      const b = order('MANUAL');
      b.fail('CERTIFICATE_ERR', at(5));
      expect(state(b)).toEqual({ status: 'FAILED', hint: 'CERTIFICATE_ERR' });
    });

    it('a hint other than OUTSTANDING_TRANSACTION and NO_CLIENT means the app is open', () => {
      const waiting = order('MANUAL');
      waiting.setHint('NO_CLIENT', at(5));
      waiting.applyTimeRules(at(30));
      expect(state(waiting)).toEqual({ status: 'FAILED', hint: 'START_FAILED' });
      const started = order('MANUAL');
      started.setHint('STARTED', at(5));
      started.applyTimeRules(at(30));
      expect(state(started)).toEqual({ status: 'PENDING', hint: 'STARTED' });
    });

    it('cancel finishes an open order FAILED CANCELLED', () => {
      const o = order('MANUAL');
      o.cancel(at(5));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'CANCELLED' });
    });

    it('an action that finds the order as it would leave it changes nothing and says so; one that moves it says it changed', () => {
      const o = order('MANUAL');
      expect(o.open(at(5), '198112189876')).toBe(true);
      expect(o.open(at(6))).toBe(false);
      expect(o.open(at(7), '198112189876')).toBe(false);
      expect(o.appOpenedAt).toEqual(at(5));
      expect(o.setHint('USER_SIGN', at(8))).toBe(false);
      expect(o.setHint('STARTED', at(8))).toBe(true);
      expect(o.setHint('STARTED', at(9))).toBe(false);
      expect(o.open(at(10), '191212121212')).toBe(true);
      expect(o.complete(at(11))).toBe(true);
    });

    it('refuses to act on an order that is no longer open (409 INVALID_STATE)', () => {
      const o = order('MANUAL');
      o.complete(at(5));
      for (const act of [() => o.open(at(6)), () => o.complete(at(6)), () => o.fail('USER_CANCEL', at(6)), () => o.cancel(at(6)), () => o.setHint('STARTED', at(6))]) {
        expect(act).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
      }
    });
  });

  describe('phone orders (contract §4)', () => {
    it('INITIATED until picked up, then USER_CALL_CONFIRM, then USER_SIGN after the call is confirmed', () => {
      const o = order('MANUAL', 'signing', 'phone');
      o.open(at(2));
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'USER_CALL_CONFIRM' });
      o.confirmCall(at(3));
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'USER_SIGN' });
    });

    it('confirming a confirmed call, or picking up a picked-up order, changes nothing', () => {
      const o = order('MANUAL', 'signing', 'phone');
      expect(o.open(at(2))).toBe(true);
      expect(o.open(at(3))).toBe(false);
      expect(o.confirmCall(at(4))).toBe(true);
      expect(o.confirmCall(at(5))).toBe(false);
      expect(o.open(at(6))).toBe(false);
      expect(o.callConfirmedAt).toEqual(at(4));
    });

    it('confirm-call works from INITIATED too', () => {
      const o = order('MANUAL', 'signing', 'phone');
      o.confirmCall(at(2));
      expect(state(o)).toEqual({ status: 'PENDING', hint: 'USER_SIGN' });
    });

    it('a declined call is FAILED USER_DECLINED_CALL', () => {
      const o = order('MANUAL', 'signing', 'phone');
      o.declineCall(at(2));
      expect(state(o)).toEqual({ status: 'FAILED', hint: 'USER_DECLINED_CALL' });
    });

    it('confirm-call and decline-call refuse app orders (409 INVALID_STATE)', () => {
      const o = order('MANUAL');
      expect(() => o.confirmCall(at(1))).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
      expect(() => o.declineCall(at(1))).toThrow(expect.objectContaining({ code: 'INVALID_STATE' }));
    });

    it('AUTO_COMPLETE phone orders are picked up, confirmed and signed at once', () => {
      const o = order('AUTO_COMPLETE', 'signing', 'phone');
      o.applyBehaviour(at(1));
      expect(state(o)).toEqual({ status: 'COMPLETE', hint: null });
    });
  });
});
