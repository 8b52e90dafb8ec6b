import { Injectable, OnModuleInit } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { addResponseHeaders, HTTP_METHODS, jsonCopy, OpenApiDocument, type ResponseHeaderName } from '@app/common';
import { matchRetired, RETIRED_VERSIONS, type RetiredVersion } from './retired-versions';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Json }>;
}

const problem = (status: number, title: string, code: string, message: string, description: string) => ({
  description,
  content: {
    'application/problem+json': {
      schema: { $ref: '#/components/schemas/ProblemDto' },
      example: { type: 'about:blank', title, status, instance: '/path/of/the/request', reason: { code, message } },
    },
  },
});

const until = (row: RetiredVersion) =>
  row.end ? `until ${row.end.toISOString()} (sandbox clock), then 410 VERSION_WITHDRAWN naming the successor` : 'for an undefined time (Deprecation only)';

/** The headers a retired path's answer carries once it passed the downtime gate (contract §7, §12). */
function retiredHeaders(row: RetiredVersion, status: string): ResponseHeaderName[] {
  if (status === '503') return [];
  if (status === '410') return ['Link'];
  return row.end ? ['Deprecation', 'Sunset', 'Link'] : ['Deprecation', 'Link'];
}

function markRetired(operation: Operation, row: RetiredVersion, successor: string): void {
  operation.deprecated = true;
  operation.summary = `Retired: ${operation.summary ?? successor}`;
  operation.description = `Retired path (contract §12, bank §9): an alias of ${successor} ${until(row)}.${operation.description ? ` ${operation.description}` : ''}`;
  if (row.end) {
    operation.responses['410'] = problem(410, 'Gone', 'VERSION_WITHDRAWN', `This version has been withdrawn; use ${row.successorName} (bank §7.4 rule 3, §9).`, 'Past the end of this retired path (sandbox clock)');
  }
  for (const [status, response] of Object.entries(operation.responses)) addResponseHeaders(response, ...retiredHeaders(row, status));
}

/**
 * Describes the retired aliases of contract §12 as `deprecated: true` operations, so that a client or a
 * validating proxy knows them (issue 13): each as a copy of its successor's operation. Every path is
 * checked against the table the gate uses (matchRetired). The redirect flows (GET
 * /psd2/auth/1.0/authenticate, /psd2/auth/2.0/authorize) are not described: they never succeed (501,
 * then 410), and an operation without a success is no operation a client could call.
 */
export function documentRetiredVersions(document: OpenAPIObject): void {
  const added: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const successor = (item as Json)[method] as Operation | undefined;
      if (!successor) continue;
      for (const row of RETIRED_VERSIONS) {
        if (!row.documented) continue;
        const { retired, successor: successorPrefix, renamed } = row.documented;
        for (const prefix of ['', '/partner']) {
          if (!path.startsWith(`${prefix}${successorPrefix}`)) continue;
          let rest = path.slice(prefix.length + successorPrefix.length);
          if (rest && !rest.startsWith('/')) continue;
          if (renamed) rest = rest.split(renamed.successor).join(renamed.retired);
          const retiredPath = `${prefix}${retired}${rest}`;
          // Only what the gate really serves: the same row, and this very successor.
          const match = matchRetired(method.toUpperCase(), retiredPath);
          if (match?.row !== row || match.successorUrl !== path) continue;
          const operation = jsonCopy(successor);
          operation.operationId = `${successor.operationId}_retired_${retired.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
          markRetired(operation, row, path);
          (added[retiredPath] ??= {})[method] = operation;
        }
      }
    }
  }
  Object.assign(document.paths, added);
}

/** Registers the retired paths with the document (built after every module's onModuleInit). */
@Injectable()
export class RetiredVersionsOpenApi implements OnModuleInit {
  constructor(private readonly document: OpenApiDocument) {}

  onModuleInit(): void {
    this.document.addTransform(documentRetiredVersions);
  }
}
