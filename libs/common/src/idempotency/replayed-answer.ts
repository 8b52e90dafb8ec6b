import type { KeptAnswer } from './idempotency-key';

/**
 * A kept answer to send again (contract §15). Raised by IdempotencyInterceptor instead of running
 * the route, and written as kept by the one exception filter: status, headers, body byte for byte.
 */
export class ReplayedAnswer extends Error {
  constructor(readonly answer: KeptAnswer) {
    super('Idempotency-Key replay');
    this.name = 'ReplayedAnswer';
  }
}
