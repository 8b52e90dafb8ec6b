import type { NextFunction, Request, Response } from 'express';
import { ValidationFailed } from '../errors/domain-error';

/**
 * No request body of the bank's or the sandbox's needs more than a handful of levels; a deeper one
 * would only exhaust the stack of the recursive transformers behind the validation pipe (a 500).
 */
export const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests objects and arrays deeper than `limit`; iterative, so any depth is safe to measure. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Refuses a parsed body nested deeper than MAX_BODY_DEPTH: 400 VALIDATION_FAILED (contract §2: never a 500). */
export function refuseDeepBodies(request: Request, _response: Response, next: NextFunction): void {
  next(nestsDeeperThan(request.body, MAX_BODY_DEPTH) ? new ValidationFailed(`The request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`) : undefined);
}
