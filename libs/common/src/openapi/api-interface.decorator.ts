import { applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiProblems } from './api-problems.decorator';
import { API_TAG, type ApiTagName } from './api-tags';

/** The bank's interfaces (bank §4): every route of theirs is down during planned downtime (contract §7). */
const BANK_INTERFACES: readonly ApiTagName[] = [API_TAG.psd2Auth, API_TAG.ais, API_TAG.pis, API_TAG.signing, API_TAG.mortgage, API_TAG.enterprise];

/**
 * Puts a controller's routes under one interface of the document (its tag) and, for the bank's
 * interfaces, documents the 503 PLANNED_DOWNTIME that comes before every other check (contract §1, §7).
 */
export function ApiInterface(tag: ApiTagName) {
  return applyDecorators(
    ApiTags(tag),
    ...(BANK_INTERFACES.includes(tag)
      ? [
          ApiProblems({
            status: 503,
            code: 'PLANNED_DOWNTIME',
            description: 'Inside a planned downtime window of bank §8 (sandbox clock), with Retry-After in seconds (contract §7)',
            message: 'Planned downtime until 2026-11-22T07:45:00+01:00 (bank §8).',
          }),
        ]
      : []),
  );
}
