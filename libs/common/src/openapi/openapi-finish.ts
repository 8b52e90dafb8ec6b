import type { OpenAPIObject } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { HINT_CATALOGUE, HINT_CODES } from '../journal/hint-catalogue';

/** The token endpoints: every answer RFC 6749 JSON with Cache-Control: no-store (contract §2). */
export const TOKEN_ENDPOINT_PATHS: readonly string[] = ['/psd2/auth/1.0/token', '/api/auth/1.0/token'];
/** The one token endpoint whose 401 has no WWW-Authenticate: a certificate, not a bearer, authenticates there (contract §2). */
const PSD2_TOKEN_PATH = '/psd2/auth/1.0/token';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;
interface ResponseLike {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Json;
}
interface OperationLike {
  operationId?: string;
  [NO_STORE_EXTENSION]?: boolean;
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, ResponseLike>;
}

/** Every operation of the document with its path. */
export function operationsOf(document: OpenAPIObject): Array<{ path: string; method: string; operation: OperationLike }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => (item as Json)[method]).map((method) => ({ path, method, operation: (item as Json)[method] as OperationLike })),
  );
}

/** Response headers the service sends, each defined once (issue 13). */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description: 'The id of this request in the service log: the caller\'s X-Request-Id when it is a well-formed one, else a new UUID',
    required: true,
    schema: { type: 'string', example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13' },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before trying again (RFC 9110 §10.2.3): to the end of the planned downtime window (contract §7), or 1 for a QR poll that came too fast (contract §5) and for a request to send again (concurrent changes, or its sandbox reset meanwhile, contract §13)',
    required: true,
    schema: { type: 'integer', minimum: 0, example: 120 },
  },
  'WWW-Authenticate': {
    description:
      'Bearer realm="sandbox", plus error="invalid_token" exactly when a bearer value was sent and refused (RFC 6750 §3, contract §2)',
    required: true,
    schema: { type: 'string', example: 'Bearer realm="sandbox", error="invalid_token"' },
  },
  'Cache-Control': {
    description:
      'no-store: never cached. Every answer of the token endpoints (RFC 6749 §5.1, contract §2), and the answers that show live state: the console, the eid simulator page, an order\'s QR code',
    required: true,
    schema: { type: 'string', enum: ['no-store'] },
  },
  Deprecation: {
    description: 'This path is retired (RFC 9745): @<unix seconds> of its end, or for a path that never ends, of when its successor appeared (contract §7, §12)',
    required: true,
    schema: { type: 'string', pattern: '^@\\d+$', example: '@1714514400' },
  },
  Sunset: {
    description: 'When this path stops working (RFC 8594), after which it answers 410 VERSION_WITHDRAWN (contract §7, §12)',
    required: true,
    schema: { type: 'string', example: 'Tue, 30 Apr 2024 22:00:00 GMT' },
  },
  Link: {
    description: 'The successor of this retired path: <path>; rel="successor-version" (RFC 8288, contract §12)',
    required: true,
    schema: { type: 'string', example: '</psd2/savings/3.0/accounts>; rel="successor-version"' },
  },
  'Idempotent-Replayed': {
    description: '`true` on an answer replayed for a retry with the same Idempotency-Key: the kept answer of the first request, body byte for byte; nothing else ran (contract §15)',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  'Sandbox-Hints': {
    description:
      'The codes of the rule hints this request earned, comma-separated; the entry in the request journal has their messages and sections (contract §14). Absent when there are none. The catalogue:\n\n' +
      HINT_CODES.map((code) => `- \`${code}\` (${HINT_CATALOGUE[code].section}): ${HINT_CATALOGUE[code].when}`).join('\n'),
    required: false,
    schema: { type: 'string', example: 'POLLED_TOO_FAST, TOKEN_EXPIRED' },
  },
} as const;

/**
 * The challenge of a 400 for a bearer credential given more than once or not as one string (RFC
 * 6750 §3.1, contract §2), documented on the 400 of every route that reads a bearer: a second
 * definition of the same header, for the 400s, where it is sent only in that case.
 */
export const INVALID_REQUEST_CHALLENGE_HEADER = 'WWW-Authenticate-invalid_request';
const INVALID_REQUEST_CHALLENGE = {
  description:
    'Bearer realm="sandbox", error="invalid_request": sent with the 400 when the bearer credential was given more than once or not as one string — a repeated access_token, a JSON access_token that is no string, or the Authorization header together with an access_token parameter (RFC 6750 §3.1, contract §2)',
  required: false,
  schema: { type: 'string', example: 'Bearer realm="sandbox", error="invalid_request"' },
};

/** Marks an operation whose answers carry Cache-Control: no-store (NoStore); describeResponseHeaders documents it and drops the mark. */
export const NO_STORE_EXTENSION = 'x-no-store';

/** Paths whose requests the journal does not record, so which never carry hints (contract §14). */
const UNRECORDED_PATHS = /^\/(admin|sandboxes|health|openapi\.json|docs|sandbox\/requests)(\/|$)|^\/$/;

/** A deep copy by JSON, not structuredClone: its objects may come from another realm (jest's vm), which js-yaml refuses to dump. */
export const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export const headerRef = (name: ResponseHeaderName) => ({ $ref: `#/components/headers/${name}` });

/** Adds `names` to a response's headers, as references to the one definition. */
export function addResponseHeaders(response: ResponseLike, ...names: ResponseHeaderName[]): void {
  response.headers = { ...(response.headers ?? {}) };
  for (const name of names) response.headers[name] = headerRef(name);
}

/**
 * What the decorators cannot say, applied to the built document (issue 13): a server, opaque bearer
 * values, operationIds without Nest's [0]/[1] suffix for routes with two paths, one entry per security
 * scheme.
 */
export function finishDocument(document: OpenAPIObject): void {
  // Same origin as the document (http://localhost:3000 by default, contract §1), so Try it out works anywhere.
  document.servers = [{ url: '/', description: 'This sandbox: the origin that serves this document' }];
  for (const scheme of Object.values(document.components?.securitySchemes ?? {})) {
    // The sandbox's tokens and keys are opaque strings, not JWTs.
    if ('bearerFormat' in scheme) delete (scheme as { bearerFormat?: string }).bearerFormat;
  }
  const requestSchemas: unknown[] = [];
  for (const { path, operation } of operationsOf(document)) {
    // Nest numbers the paths of a route with several (signing and mortgage with and without /partner, contract §1).
    const suffix = /\[(\d+)\]$/.exec(operation.operationId ?? '');
    if (suffix) {
      const base = operation.operationId!.slice(0, suffix.index);
      operation.operationId = path.startsWith('/partner/') ? `${base}_partner` : base;
    }
    if ((operation as { requestBody?: unknown }).requestBody) requestSchemas.push((operation as { requestBody?: unknown }).requestBody);
    if (operation.security) {
      const seen = new Set<string>();
      operation.security = operation.security.filter((entry) => {
        const key = JSON.stringify(entry);
        return !seen.has(key) && seen.add(key);
      });
    }
  }
  defaultsIntoDescriptions(document, requestSchemas);
}

/**
 * A request-body property with a `default` is optional to send, but generators such as
 * openapi-typescript type every property with a default as present (issue 13: the README's seed body
 * failed to type-check). So request schemas say their defaults in the description instead.
 */
function defaultsIntoDescriptions(document: OpenAPIObject, roots: unknown[]): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(visit);
    const node = value as Json;
    if (typeof node.$ref === 'string') visit(schemas[node.$ref.replace('#/components/schemas/', '')]);
    for (const property of Object.values((node.properties as Record<string, Json> | undefined) ?? {})) {
      if (property && 'default' in property) {
        const text = `Default: ${JSON.stringify(property.default)}.`;
        const description = property.description as string | undefined;
        property.description = description ? `${description.replace(/\.?$/, '.')} ${text}` : text;
        delete property.default;
      }
    }
    for (const inner of Object.values(node)) visit(inner);
  };
  roots.forEach(visit);
}

/**
 * The response headers of contract §2, §5, §7 on every response that carries them, defined once in
 * components.headers: X-Request-Id on all, Retry-After on 429 and 503, WWW-Authenticate on 401 (not
 * the PSD2 token endpoint's), Cache-Control on the token endpoints and on the 2xx of the routes marked
 * NoStore, Sandbox-Hints (optional) on every route the journal records.
 */
export function describeResponseHeaders(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    headers: { ...(document.components?.headers ?? {}), ...jsonCopy(RESPONSE_HEADERS), [INVALID_REQUEST_CHALLENGE_HEADER]: jsonCopy(INVALID_REQUEST_CHALLENGE) } as never,
  };
  const bearerSchemes = new Set(
    Object.entries(document.components.securitySchemes ?? {})
      .filter(([, scheme]) => 'scheme' in scheme && scheme.scheme === 'bearer')
      .map(([name]) => name),
  );
  for (const { path, operation } of operationsOf(document)) {
    const tokenEndpoint = TOKEN_ENDPOINT_PATHS.includes(path);
    const noStore = operation[NO_STORE_EXTENSION] === true;
    const readsBearer = (operation.security ?? []).some((entry) => Object.keys(entry).some((name) => bearerSchemes.has(name)));
    delete operation[NO_STORE_EXTENSION];
    for (const [status, response] of Object.entries(operation.responses)) {
      addResponseHeaders(response, 'X-Request-Id');
      if (status === '429' || status === '503') addResponseHeaders(response, 'Retry-After');
      if (status === '401' && path !== PSD2_TOKEN_PATH) addResponseHeaders(response, 'WWW-Authenticate');
      if (status === '400' && readsBearer) response.headers = { ...response.headers, 'WWW-Authenticate': { $ref: `#/components/headers/${INVALID_REQUEST_CHALLENGE_HEADER}` } };
      if (tokenEndpoint || (noStore && /^2/.test(status))) addResponseHeaders(response, 'Cache-Control');
      if (!UNRECORDED_PATHS.test(path)) addResponseHeaders(response, 'Sandbox-Hints');
    }
  }
}

const problemMedia = (status: number, code: string, message: string) => ({
  schema: { $ref: '#/components/schemas/ProblemDto' },
  example: { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, instance: '/path/of/the/request', reason: { code, message } },
});

/**
 * The header rules that hold on every route (contract §2; HeaderInputGuard): `PSU-IP-Address`, wherever
 * it is sent, an IP address, and no control character in a header the service reads. So every
 * operation may answer 400; one that documents no 400 of its own gets this one. The token endpoints
 * document theirs (invalid_request).
 */
export function describeHeaderRules(document: OpenAPIObject): void {
  for (const { operation } of operationsOf(document)) {
    if (operation.responses['400']) continue;
    operation.responses['400'] = {
      description:
        'VALIDATION_FAILED: a header the service reads is malformed, e.g. PSU-IP-Address that is not an IPv4 or IPv6 address, or a control character in X-Sandbox-User; ' +
        'or the request is past the limits of bounded work: a body nested deeper than 32 levels, an object of more than 1 000 members, an array of more than 10 000 elements, a query of more than 1 000 parameters (contract §2)',
      content: { 'application/problem+json': problemMedia(400, 'VALIDATION_FAILED', 'PSU-IP-Address must be an IPv4 or IPv6 address (got "not-an-ip")') },
    };
  }
}

/**
 * The service's own paths and the lifecycle routes, at the root only (contract §13): no sandbox
 * serves them (under a prefix `/health` and `/sandboxes…` are unknown routes, and `/` is the
 * lifecycle route of the sandbox), so none is reset under them either.
 */
export const ROOT_ONLY_PATHS = /^\/(health|sandboxes)(\/|$)|^\/$/;

const SANDBOX_RESET = {
  description: 'SANDBOX_RESET: the sandbox was reset (POST /sandboxes/{sandbox_id}/reset) while this request ran, so it could not finish; send it again after Retry-After (1 s) (contract §13)',
  message: 'This sandbox was reset while the request ran, so the request could not finish: send it again.',
};

/**
 * The 503 every route a sandbox serves may answer when that sandbox is reset under the request
 * (contract §13; SandboxResetMeanwhile), beside the route's own 503s as another example: a problem,
 * or on the token endpoints RFC 6749's temporarily_unavailable.
 */
export function describeSandboxReset(document: OpenAPIObject): void {
  const problem = problemMedia(503, 'SANDBOX_RESET', SANDBOX_RESET.message);
  for (const { path, operation } of operationsOf(document)) {
    if (ROOT_ONLY_PATHS.test(path)) continue;
    const existing = operation.responses['503'];
    if (!existing) {
      operation.responses['503'] = { description: SANDBOX_RESET.description, content: { 'application/problem+json': jsonCopy(problem) } };
      continue;
    }
    existing.description = `${existing.description ?? 'Service Unavailable'}; or ${SANDBOX_RESET.description}`;
    const [type, name, value] = TOKEN_ENDPOINT_PATHS.includes(path)
      ? ['application/json', 'sandbox_reset', { error: 'temporarily_unavailable', error_description: SANDBOX_RESET.message }]
      : ['application/problem+json', 'SANDBOX_RESET', problem.example];
    const media = existing.content?.[type] as { example?: { reason?: { code?: string } }; examples?: Record<string, { summary?: string; value: unknown }> } | undefined;
    if (!media) {
      existing.content = { ...existing.content, [type]: jsonCopy(problem) };
      continue;
    }
    if (media.example !== undefined) {
      media.examples = { [media.example.reason?.code ?? 'unavailable']: { value: media.example } };
      delete media.example;
    }
    media.examples = { ...media.examples, [name]: { summary: SANDBOX_RESET.description, value: jsonCopy(value) } };
  }
}

const IN_USE = 'IDEMPOTENCY_KEY_IN_USE: the first request with this Idempotency-Key is still running (contract §15)';

/**
 * What every operation that takes `Idempotency-Key` (`@Idempotent()`) may answer besides its own
 * (contract §15): 422 IDEMPOTENCY_KEY_REUSED, 409 IDEMPOTENCY_KEY_IN_USE (beside the route's own
 * 409s, as a second example), and `Idempotent-Replayed` on the answers that are kept and replayed
 * (2xx, 404, 409). Before the other transforms, so the retired aliases copy it.
 */
export function describeIdempotency(document: OpenAPIObject): void {
  for (const { operation } of operationsOf(document)) {
    const parameters = (operation as { parameters?: Array<{ in?: string; name?: string }> }).parameters ?? [];
    if (!parameters.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_KEY_HEADER)) continue;
    for (const [status, response] of Object.entries(operation.responses)) {
      if (/^2/.test(status) || status === '404' || status === '409') addResponseHeaders(response, IDEMPOTENT_REPLAYED_HEADER);
    }
    operation.responses['422'] = {
      description: 'IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was first sent with another method, path, body or X-Sandbox-User (contract §15)',
      content: { 'application/problem+json': problemMedia(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was first sent with another method, path, body or X-Sandbox-User: use a new key for a new request.') },
    };
    const inUse = problemMedia(409, 'IDEMPOTENCY_KEY_IN_USE', 'The first request with this Idempotency-Key is still running: retry when it has answered.');
    const existing = operation.responses['409'];
    const media = existing?.content?.['application/problem+json'] as { example?: unknown; examples?: Record<string, { value: unknown }> } | undefined;
    if (!existing || !media) {
      operation.responses['409'] = { description: IN_USE, content: { 'application/problem+json': inUse } };
      continue;
    }
    const own = media.example !== undefined ? { [(media.example as { reason: { code: string } }).reason.code]: { value: media.example } } : (media.examples ?? {});
    delete media.example;
    media.examples = { ...own, IDEMPOTENCY_KEY_IN_USE: { value: inUse.example } };
    existing.description = `${existing.description ?? 'Conflict'}; or ${IN_USE}`;
  }
}
