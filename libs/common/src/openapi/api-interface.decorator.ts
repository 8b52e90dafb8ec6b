import { ApiTags } from '@nestjs/swagger';
import { ApiProblems, documentedProblems, type ProblemExample } from './api-problems.decorator';
import { API_TAG, type ApiTagName } from './api-tags';

/** The bank's interfaces (bank §4): every route of theirs is down during planned downtime (contract §7). */
const BANK_INTERFACES: readonly ApiTagName[] = [API_TAG.psd2Auth, API_TAG.ais, API_TAG.pis, API_TAG.signing, API_TAG.mortgage, API_TAG.enterprise];

/** The 503 of every bank route inside a planned downtime window (contract §7). */
export const PLANNED_DOWNTIME_PROBLEM: ProblemExample = {
  status: 503,
  code: 'PLANNED_DOWNTIME',
  description: 'Inside a planned downtime window of bank §8 (sandbox clock), with Retry-After in seconds (contract §7)',
  message: 'Planned downtime until 2026-11-22T07:45:00+01:00 (bank §8).',
};

/**
 * Puts a controller's routes under one interface of the document (its tag) and, for the bank's
 * interfaces, documents the 503 PLANNED_DOWNTIME that comes before every other check (contract §1, §7),
 * also beside a route's own 503 (a route's response of a status replaces its controller's).
 */
export function ApiInterface(tag: ApiTagName): ClassDecorator {
  return (target) => {
    ApiTags(tag)(target);
    if (!BANK_INTERFACES.includes(tag)) return;
    ApiProblems(PLANNED_DOWNTIME_PROBLEM)(target);
    const routes = target.prototype as object;
    for (const name of Object.getOwnPropertyNames(routes)) {
      const descriptor = Object.getOwnPropertyDescriptor(routes, name)!;
      if (typeof descriptor.value === 'function' && documentedProblems(descriptor.value as object).has(503)) {
        ApiProblems(PLANNED_DOWNTIME_PROBLEM)(routes, name, descriptor);
      }
    }
  };
}
