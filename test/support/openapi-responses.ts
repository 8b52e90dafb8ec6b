import type { OpenAPIObject } from '@nestjs/swagger';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Response } from 'supertest';
import { resolveRequestSandbox, type RequestWithSandbox, tokenEndpointOf } from '@app/common';

// ajv-formats is CommonJS: under ESM its function is the default export's default.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/**
 * Checks every response the e2e suite receives against the operation the document describes
 * (issue 13): the status is documented, the content type is one of the response's, and a JSON body
 * validates against its schema, compiled with ajv from the document, unknown properties refused; the
 * headers the document marks required are sent.
 * So the document and the code cannot drift apart unnoticed.
 *
 * The narrow exceptions, each a rule:
 * - The documentation itself (/docs, /openapi.json, /openapi.yaml) is served by Swagger, not described.
 * - A path (or method) the document does not name answers Nest's 404, checked against ProblemDto (OAuthErrorDto on
 *   the token paths, whose shape is chosen by path); a path that does not percent-decode may answer 400.
 * - The retired redirect flows (contract §12) are not operations (they never succeed): their 501, 410
 *   or downtime 503 is a problem, checked against ProblemDto.
 * - Under a sandbox's prefix (`/sandboxes/{id}/…`, contract §13) a path is the operation of the path
 *   without it; the routing's own refusals there (a malformed id 400, an unknown sandbox 404, a
 *   root-only path 404, a sandbox deleted while the request ran 404) are problems, checked against ProblemDto.
 * - Routes of test-only modules (`createTestApp({ imports })`) live under /test-only/ and are not the
 *   product's: their answers are the test's business.
 */
const DOCUMENTATION = /^\/(docs(\/|$)|openapi\.(json|yaml)$)/;
const TEST_ONLY = /^\/test-only(\/|$)/;

const RETIRED_REDIRECT_FLOWS = /^\/psd2\/auth\/(1\.0\/authenticate|2\.0\/authorize)\/?$/;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

type Schema = Record<string, unknown>;

interface Route {
  path: string;
  pattern: RegExp;
  /** Literal segments count first: /admin/users/seed wins over /admin/users/{personal_number}. */
  templated: number;
}

export class OpenApiResponseValidator {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    this.ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
    addFormats(this.ajv);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) this.ajv.addFormat(format, true);
    const schemas = closeObjects(rewriteRefs(structuredClone(document.components?.schemas ?? {})) as Record<string, Schema>);
    this.ajv.addSchema({ $id: 'openapi', definitions: schemas });
    this.routes = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}$`),
        templated: (path.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.templated - b.templated);
  }

  /**
   * The path as the routing serves it (a sandbox's prefix stripped; `GET /sandboxes/{id}` asked for
   * HTML is the console, `/`); null when the routing refuses it.
   */
  private pathInSandbox(method: string, path: string, accept: string | undefined): string | null {
    const request = { method: method.toUpperCase(), url: path, headers: accept === undefined ? {} : { accept } } as RequestWithSandbox;
    try {
      resolveRequestSandbox(request);
    } catch {
      return null;
    }
    return request.url ?? path;
  }

  /** An answer no operation describes: a problem, or the token paths' RFC 6749 error (contract §2). */
  private checkProblem(where: string, path: string, res: Response): void {
    const [type, schema] = tokenEndpointOf(path) ? ['application/json', 'OAuthErrorDto'] : ['application/problem+json', 'ProblemDto'];
    if (!String(res.headers['content-type']).startsWith(type)) this.fail(where, `an undescribed path answers ${type}, not ${res.headers['content-type']}`);
    this.checkBody(where, { $ref: `#/components/schemas/${schema}` }, res, `undocumented:${schema}`);
  }

  /** Throws an error naming every mismatch of `res` to the document; returns quietly when it fits. */
  check(method: string, url: string, res: Response): void {
    const sent = new URL(url, 'http://sandbox').pathname;
    const accept = (res as unknown as { req?: { getHeader(name: string): unknown } }).req?.getHeader('accept');
    const path = this.pathInSandbox(method, sent, typeof accept === 'string' ? accept : undefined);
    if (path === null) {
      const where = `${method.toUpperCase()} ${sent} → ${res.status}`;
      if (res.status !== 400 && res.status !== 404) this.fail(where, `the sandbox routing refuses this path, yet it answered ${res.status}`);
      this.checkProblem(where, sent, res);
      return;
    }
    if (DOCUMENTATION.test(path) || TEST_ONLY.test(path)) return;
    if (path !== sent && res.status === 404 && /^(No sandbox has the id |This sandbox no longer exists)/.test(String(res.body?.reason?.message ?? res.body?.error_description))) {
      this.checkProblem(`${method.toUpperCase()} ${sent} → ${res.status}`, sent, res);
      return;
    }
    const route = this.routes.find((r) => r.pattern.test(path));
    const operation = route ? (this.document.paths[route.path] as Record<string, unknown>)[method.toLowerCase()] as OperationLike | undefined : undefined;
    const where = `${method.toUpperCase()} ${path} → ${res.status}`;
    if (!route || !operation) {
      // Not described: only the router's own 404 may answer (or a retired redirect flow's problem, or the
      // 400 naming a path that does not decode), in the shape the path chooses (contract §2).
      const redirectFlow = RETIRED_REDIRECT_FLOWS.test(path) && [410, 501, 503].includes(res.status);
      const undecodable = res.status === 400 && !decodes(path);
      if (res.status !== 404 && !redirectFlow && !undecodable) this.fail(where, `${route ? 'this method of the path' : 'the path'} is not in the document, yet it answered ${res.status}`);
      this.checkProblem(where, path, res);
      return;
    }
    const responses = operation.responses ?? {};
    const documented = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
    if (!documented) this.fail(where, `status ${res.status} is not documented (documented: ${Object.keys(responses).join(', ')}); body ${JSON.stringify(res.body ?? res.text).slice(0, 300)}`);
    const missing = Object.entries(documented.headers ?? {})
      .filter(([, header]) => this.header(header).required)
      .map(([name]) => name)
      .filter((name) => res.headers[name.toLowerCase()] === undefined);
    if (missing.length) this.fail(where, `the documented header${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`);
    const content = documented.content ?? {};
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const types = Object.keys(content);
    if (!types.length) {
      if (contentType || (res.text ?? '').length) this.fail(where, `the documented response has no body, but ${contentType || 'a body'} was sent`);
      return;
    }
    const media = content[contentType] ?? (contentType ? undefined : undefined);
    if (!media) this.fail(where, `content type "${contentType}" is not documented (documented: ${types.join(', ')}); body ${JSON.stringify(res.body ?? res.text).slice(0, 300)}`);
    if (!/^application\/([a-z.+-]*\+)?json$/.test(contentType) || !media.schema) return;
    this.checkBody(where, media.schema, res, `${route.path} ${method} ${res.status} ${contentType}`);
  }

  private header(header: { $ref?: string; required?: boolean }): { required?: boolean } {
    const name = header.$ref?.replace('#/components/headers/', '');
    return name ? ((this.document.components?.headers ?? {}) as Record<string, { required?: boolean }>)[name] ?? {} : header;
  }

  private checkBody(where: string, schema: Schema, res: Response, key: string): void {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(closeObjects(rewriteRefs(structuredClone(schema))) as Schema);
      this.validators.set(key, validate);
    }
    if (!validate(res.body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      this.fail(where, `the body does not match the documented schema: ${errors.join('; ')}; body ${JSON.stringify(res.body).slice(0, 500)}`);
    }
  }

  private fail(where: string, why: string): never {
    throw new Error(`Response differs from the OpenAPI document (${where}): ${why}`);
  }
}

interface OperationLike {
  responses?: Record<string, { headers?: Record<string, { $ref?: string; required?: boolean }>; content?: Record<string, { schema?: Schema }> }>;
}

/** Component refs point into the one schema ajv holds them in. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', 'openapi#/definitions/') : rewriteRefs(inner);
  }
  return out;
}

/**
 * An object schema that does not say what else it allows allows nothing else: an answer with a field
 * the document does not name is a mismatch (OpenAPI's default would let anything through).
 */
function closeObjects<T>(value: T): T {
  if (Array.isArray(value)) {
    value.forEach(closeObjects);
    return value;
  }
  if (!value || typeof value !== 'object') return value;
  const schema = value as Schema;
  for (const inner of Object.values(schema)) closeObjects(inner);
  if (schema.properties && typeof schema.properties === 'object' && schema.additionalProperties === undefined && !schema.allOf && !schema.anyOf && !schema.oneOf) {
    schema.additionalProperties = false;
  }
  return value;
}

/** Wraps a supertest agent so that every request it makes checks its response against the document. */
export function validatingAgent<T extends object>(agent: T, validator: () => OpenApiResponseValidator): T {
  return new Proxy(agent, {
    get(target, property, receiver) {
      const original = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !(METHODS as readonly string[]).includes(property) && property !== 'del') return original;
      return (...args: unknown[]) => {
        const test = (original as (...a: unknown[]) => { url: string; method: string; expect(fn: (res: Response) => void): unknown }).apply(target, args);
        // Runs before the test's own expectations, so a mismatch fails the request that caused it.
        test.expect((res: Response) => validator().check(test.method, test.url, res));
        return test;
      };
    },
  });
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
