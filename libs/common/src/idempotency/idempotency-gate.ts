import { AsyncLocalStorage } from 'node:async_hooks';

const gates = new AsyncLocalStorage<() => Promise<void>>();

/**
 * Where the Idempotency-Key is looked at (contract §1 order: after the credentials and the input
 * validation, before resource and state checks). Nest runs pipes inside the interceptors, so
 * IdempotencyInterceptor only opens a gate around the route; the route's handler, wrapped by
 * `@Idempotent()`, passes it first — after the pipes validated its arguments, before the use case.
 */
export const IdempotencyGate = {
  /** Runs `work` (the route's `next.handle()`) with `gate` for its handler to pass. */
  run<T>(gate: () => Promise<void>, work: () => T): T {
    return gates.run(gate, work);
  },

  /** Passes the request's gate: claims the key, or throws its 409, 422 or replay. None: nothing to do. */
  async pass(): Promise<void> {
    await gates.getStore()?.();
  },
};

/**
 * Wraps a route handler so that it passes the gate before it runs (see IdempotencyGate). The
 * metadata earlier decorators put on the handler (route, status, OpenAPI) moves to the wrapper.
 */
export function PassIdempotencyGate(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as (...args: unknown[]) => unknown;
    const gated = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
      await IdempotencyGate.pass();
      return handler.apply(this, args);
    };
    for (const key of Reflect.getOwnMetadataKeys(handler)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), gated);
    Object.defineProperty(gated, 'name', { value: handler.name });
    descriptor.value = gated;
  };
}
