import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { PassIdempotencyGate } from './idempotency-gate';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key';
import { IDEMPOTENT_ROUTE, IdempotencyInterceptor, type IdempotentOptions } from './idempotency.interceptor';

/** The description of the request header, for the OpenAPI document. */
export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes a retry safe (contract §15): 1–255 visible ASCII characters. The first request with a key runs; its answer (2xx, 404, 409) is kept for 24 hours of the ' +
  'sandbox clock and replayed to a retry with the same key, method, path, body (compared after parsing) and X-Sandbox-User, with `Idempotent-Replayed: true`. ' +
  'The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 IDEMPOTENCY_KEY_IN_USE. Keys are per caller. ' +
  'Answers that ran nothing (400, 401, 403, 410, 413, 422, 429, 503, 5xx) are not kept: fix the request and retry with the same key.';

/**
 * A creating POST that accepts `Idempotency-Key` (contract §15): IdempotencyInterceptor claims the
 * key after the credentials and the input validation (the handler passes its gate) and before the
 * use case, keeps the answer and replays it. Bound here, on the marked routes only: a route with no
 * interceptor skips Nest's observable pipeline altogether (issue 19, the per-request cost).
 */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    PassIdempotencyGate(),
    UseInterceptors(IdempotencyInterceptor),
    SetMetadata(IDEMPOTENT_ROUTE, { owner: options.owner ?? 'sandbox' } satisfies IdempotentOptions),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: IDEMPOTENCY_KEY_DESCRIPTION,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: 'retry-7f3c2a' },
    }),
  );
