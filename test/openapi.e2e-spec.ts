import { load } from 'js-yaml';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Response } from 'supertest';
import { ERROR_CATALOGUE, type ErrorCode, STATUS_OF_KIND } from '@app/common';
import { OpenApiResponseValidator } from './support/openapi-responses';
import { createSandbox } from './support/sandboxes';
import { createTestApp, TestApp } from './support/test-app';

interface LintResult {
  valid: boolean;
  error?: string;
  findings: Array<{ code: string | number; severity: number; path: string; message: string }>;
}

/** @apidevtools/swagger-parser and Spectral's spectral:oas ruleset on a document (see test/support/lint-openapi.mjs). */
async function lintOpenApi(text: string, yaml: boolean): Promise<LintResult> {
  const child = promisify(execFile)(process.execPath, ['test/support/lint-openapi.mjs', yaml ? 'yaml' : 'json'], { maxBuffer: 64 * 1024 * 1024 });
  child.child.stdin!.end(text);
  return JSON.parse((await child).stdout) as LintResult;
}

/** Routes Swagger itself serves (they document the others), and Nest's catch-all 404 route. */
const DOCUMENTATION_ROUTES = /^\/(docs|openapi\.(json|yaml))|\*splat/;

/** Routes whose successful answers carry Cache-Control: no-store besides the token endpoints: pages and a QR code that show live state. */
const NO_STORE_ROUTES = ['GET /', 'GET /sandbox/eid', 'GET /sandbox/eid/operations/{operation_id}/qr.svg'];

/** Contract §2: these answer RFC 6749 { error, error_description } instead of problem+json. */
const TOKEN_ENDPOINTS = ['/psd2/auth/1.0/token', '/api/auth/1.0/token'];

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every METHOD /path Nest registered on Express, in OpenAPI's {param} form. */
function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  return express.router.stack
    .filter((layer) => layer.route && !DOCUMENTATION_ROUTES.test(layer.route.path))
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${layer.route!.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`),
    );
}

/** The eight interfaces of issue 9, in the order /docs shows them. */
const INTERFACES = ['PSD2 auth', 'AIS', 'PIS', 'signing', 'mortgage', 'enterprise', 'sandbox', 'admin'];

/** The interfaces of the bank (bank §4): planned downtime applies to them (contract §7). */
const BANK_INTERFACES = ['PSD2 auth', 'AIS', 'PIS', 'signing', 'mortgage', 'enterprise'];

/** Request bodies whose fields are all optional (an empty fixture loads nothing), so have no `required`; so do optional bodies. */
const ALL_OPTIONAL_BODIES = ['SeedFixtureDto'];

/** 2xx bodies that are not JSON, so have no JSON schema. */
const NON_JSON = /^(application\/(yaml|x-yaml)|text\/(html|yaml)|image\/)/;

/** Ids the sandbox issues are UUIDs (contract §2); these `_id` fields are not. */
// sandbox_id: a UUID, or the default sandbox's literal `default` (contract §13), described by a pattern.
const NOT_UUID_IDS = ['organization_id', 'client_id', 'user_id', 'sandbox_id', 'request_id'];
/** A journal entry's caller id is an organization id, a partner_id or a personal number (contract §14). */
const NOT_UUID_FIELDS = ['JournalCallerDto.id'];

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  example?: unknown;
  description?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Parameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}

/** A media type's example, or each of its named examples. */
const examplesOf = (media: MediaType | undefined): unknown[] =>
  media?.example !== undefined ? [media.example] : Object.values(media?.examples ?? {}).map((e) => e.value);

describe('OpenAPI description (contract §1)', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    tags?: Array<{ name: string; description?: string }>;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };

  /** Every operation as [`METHOD /path`, operation]. */
  const operations = (): Array<[string, Operation]> =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method))
        .map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
    );
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]) : schema);
  /** A request schema and every schema it reaches, as [where, property name, property schema]. */
  const propertiesOf = (schema: Schema, where: string, seen = new Set<Schema>()): Array<[string, string, Schema]> => {
    const resolved = resolve(schema);
    if (seen.has(resolved)) return [];
    seen.add(resolved);
    const nested = [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.items ? [resolved.items] : [])];
    return [
      ...Object.entries(resolved.properties ?? {}).flatMap(([name, property]): Array<[string, string, Schema]> => [
        [where, name, property],
        ...propertiesOf(property, `${where}.${name}`, seen),
      ]),
      ...nested.flatMap((s) => propertiesOf(s, where, seen)),
    ];
  };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/openapi.json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('serves an OpenAPI 3 document at /openapi.json without auth (contract §1)', () => {
    expect(doc.openapi).toMatch(/^3\./);
  });

  it('serves Swagger UI at /docs without auth (contract §1)', async () => {
    const res = await t.http.get('/docs').redirects(3).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/swagger/i);
  });

  it('documents every registered route: a route missing from the document fails here', () => {
    const routes = registeredRoutes(t);
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((route) => {
      const [method, path] = route.split(' ');
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it('gives every operation a summary, a success response and its error responses: problem+json, RFC 6749 JSON on token endpoints (contract §2)', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect({ where, summary: typeof operation.summary }).toEqual({ where, summary: 'string' });
        const statuses = Object.keys(operation.responses);
        expect({ where, success: statuses.some((s) => /^2/.test(s)) }).toEqual({ where, success: true });
        for (const status of statuses.filter((s) => /^[45]/.test(s))) {
          // Every answer of a token endpoint is RFC 6749 JSON; the eid page shows its errors to a browser as HTML (contract §2).
          const oauth = TOKEN_ENDPOINTS.includes(path);
          const page = path === '/sandbox/eid' && ['400', '404'].includes(status);
          expect({ where, status, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({
            where,
            status,
            content: oauth ? ['application/json'] : page ? ['application/problem+json', 'text/html'] : ['application/problem+json'],
          });
        }
      }
    }
  });

  it('documents 401 and 403 on every admin route (contract §3)', () => {
    for (const [path, item] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/admin/'))) {
      for (const [method, operation] of Object.entries(item)) {
        expect({ route: `${method} ${path}`, statuses: Object.keys(operation.responses) }).toEqual({
          route: `${method} ${path}`,
          statuses: expect.arrayContaining(['401', '403']),
        });
      }
    }
  });

  it('documents Idempotency-Key on exactly the creating POSTs of contract §15, with 409 IDEMPOTENCY_KEY_IN_USE, 422 IDEMPOTENCY_KEY_REUSED and Idempotent-Replayed on the kept answers (contract §15)', () => {
    const expected = [
      'POST /psd2/savings/3.0/accounts/{accountNumber}/transfers',
      'POST /psd2/savings/3.0/accounts/{accountNumber}/recurring-transfers',
      'POST /psd2/savings/3.0/transfers/signing/start',
      'POST /psd2/savings/2.0/accounts/{accountNumber}/transfers',
      'POST /psd2/savings/2.0/accounts/{accountNumber}/recurring-transfers',
      'POST /psd2/savings/2.0/transfers/signing/start',
      'POST /v3/accounts/{accountNumber}/transfers',
      'POST /psd2/auth/3.0/authenticate',
      'POST /psd2/auth/3.0/authorize',
      'POST /signing/1.0/start',
      'POST /signing/1.0/start/phone',
      'POST /partner/signing/1.0/start',
      'POST /partner/signing/1.0/start/phone',
      'POST /mortgage/2.0/pre-approval',
      'POST /mortgage/2.0/pre-approval/{id}/acceptance',
      'POST /partner/mortgage/2.0/pre-approval',
      'POST /partner/mortgage/2.0/pre-approval/{id}/acceptance',
      'POST /api/loan-application/2.0/mortgages',
      'POST /partner/api/loan-application/2.0/mortgages',
      'POST /admin/users/{personal_number}/accounts',
      'POST /admin/partners',
      'POST /admin/seed',
      'POST /admin/clock/advance',
      'POST /sandboxes',
    ];
    const takesKey = (operation: Operation) => (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && !p.required && (p.schema as { maxLength?: number } | undefined)?.maxLength === 255);
    const withKey = operations().filter(([, operation]) => takesKey(operation));
    // The retired aliases (contract §12) of these routes take it too, as copies of their successors.
    const current = withKey.map(([where]) => where).filter((where) => !(doc.paths[where.split(' ')[1]].post as Operation & { deprecated?: boolean }).deprecated);
    expect(current.sort()).toEqual(expected.filter((where) => !where.includes('/savings/2.0/')).sort());
    expect(withKey.map(([where]) => where)).toEqual(expect.arrayContaining(expected));
    const codesOf = (media?: MediaType) => (media?.example !== undefined ? [media.example] : Object.values(media?.examples ?? {}).map((e) => e.value)).map((e) => (e as { reason: { code: string } }).reason.code);
    const wrong: Array<Record<string, unknown>> = [];
    for (const [where, operation] of withKey) {
      const responses = operation.responses as Record<string, { content?: Record<string, MediaType>; headers?: Record<string, { $ref?: string }> }>;
      if (!codesOf(responses['409']?.content?.['application/problem+json']).includes('IDEMPOTENCY_KEY_IN_USE')) wrong.push({ where, needs: '409 IDEMPOTENCY_KEY_IN_USE' });
      if (!codesOf(responses['422']?.content?.['application/problem+json']).includes('IDEMPOTENCY_KEY_REUSED')) wrong.push({ where, needs: '422 IDEMPOTENCY_KEY_REUSED' });
      for (const [status, response] of Object.entries(responses)) {
        const replayed = response.headers?.['Idempotent-Replayed']?.$ref === '#/components/headers/Idempotent-Replayed';
        if (/^2/.test(status) && !replayed) wrong.push({ where, status, needs: 'Idempotent-Replayed' });
        // Only kept answers are replayed: 2xx, 404 and 409.
        if (!/^2/.test(status) && !['404', '409'].includes(status) && replayed) wrong.push({ where, status, needsNo: 'Idempotent-Replayed' });
      }
    }
    expect(wrong).toEqual([]);
  });

  it('publishes the JSON schema of the seed fixture (contract §8)', () => {
    expect(doc.components.schemas).toHaveProperty('SeedFixtureDto');
    expect(doc.components.schemas).toHaveProperty('SeedUserDto');
    expect(doc.components.schemas).toHaveProperty('ProblemDto');
  });

  it('lists the request schema\'s required fields (clients generate code from them)', () => {
    const putUser = doc.components.schemas.PutUserDto as { required: string[] };
    expect(putUser.required.sort()).toEqual(['kyc_completed', 'name']);
  });

  it('tags every operation with exactly one of the eight interfaces (issue 9, contract §1)', () => {
    const wrong = operations()
      .filter(([, operation]) => operation.tags?.length !== 1 || !INTERFACES.includes(operation.tags[0]))
      .map(([where, operation]) => ({ where, tags: operation.tags }));
    expect(wrong).toEqual([]);
    const used = new Set(operations().map(([, operation]) => operation.tags![0]));
    expect([...used].sort()).toEqual([...INTERFACES].sort());
  });

  it('declares the eight interface tags in the order /docs shows them, each with a description citing its sections (issue 9, contract §1)', () => {
    expect((doc.tags ?? []).map((tag) => tag.name)).toEqual(INTERFACES);
    for (const tag of doc.tags!) expect({ tag: tag.name, description: tag.description }).toEqual({ tag: tag.name, description: expect.stringMatching(/§\d/) });
  });

  it('gives every request body a JSON schema with its required fields and typed properties (issue 9, contract §1)', () => {
    const bodies = operations().filter(([, operation]) => operation.requestBody);
    expect(bodies.length).toBeGreaterThan(10);
    for (const [where, operation] of bodies) {
      const media = Object.entries(operation.requestBody!.content);
      expect({ where, media: media.map(([type]) => type) }).toEqual({ where, media: [expect.stringMatching(/^application\/(json|x-www-form-urlencoded)$/)] });
      const [, { schema }] = media[0];
      expect({ where, schema: Boolean(schema) }).toEqual({ where, schema: true });
      const name = schema!.$ref?.replace('#/components/schemas/', '');
      const body = resolve(schema!);
      expect({ where, type: body.type, properties: Object.keys(body.properties ?? {}).length > 0 }).toEqual({ where, type: 'object', properties: true });
      if (operation.requestBody!.required !== false && !ALL_OPTIONAL_BODIES.includes(name ?? '')) {
        expect({ where, required: body.required }).toEqual({ where, required: expect.arrayContaining([expect.any(String)]) });
      }
      for (const [at, property, s] of propertiesOf(schema!, where)) {
        const typed = Boolean(s.type || s.$ref || s.allOf || s.oneOf || s.anyOf);
        expect({ at, property, typed }).toEqual({ at, property, typed: true });
      }
    }
  });

  it('marks the formats of fields: personal numbers, dates, instants, IP addresses, UUIDs, amounts (issue 9, contract §1)', () => {
    const wrong: Array<Record<string, unknown>> = [];
    for (const [name, component] of Object.entries(doc.components.schemas)) {
      for (const [property, s] of Object.entries(component.properties ?? {})) {
        const where = `${name}.${property}`;
        const example = typeof s.example === 'string' ? s.example : undefined;
        if (['personal_number', 'user_id'].includes(property) && !s.pattern) wrong.push({ where, needs: 'a personal-number pattern' });
        if (example && /^\d{4}-\d{2}-\d{2}$/.test(example) && s.format !== 'date') wrong.push({ where, needs: 'format date' });
        if (example && /^\d{4}-\d{2}-\d{2}T/.test(example) && s.format !== 'date-time') wrong.push({ where, needs: 'format date-time' });
        if ((/_at$/.test(property) || /_date$/.test(property)) && !['date', 'date-time'].includes(s.format ?? '')) wrong.push({ where, needs: 'format date or date-time' });
        if (/_ip$/.test(property) && !s.pattern && !(s.anyOf ?? s.oneOf ?? [s]).every((f) => ['ipv4', 'ipv6'].includes(f.format ?? ''))) {
          wrong.push({ where, needs: 'format ipv4/ipv6' });
        }
        if ((property === 'id' || /_id$/.test(property)) && !NOT_UUID_IDS.includes(property) && !NOT_UUID_FIELDS.includes(where)) {
          const item = s.type === 'array' ? s.items ?? {} : s;
          if (item.format !== 'uuid') wrong.push({ where, needs: 'format uuid' });
        }
        if (/(^|_)(amount|balance)$/.test(property) && (!['number', 'integer'].includes(s.type ?? '') || s.example === undefined)) {
          wrong.push({ where, needs: 'a number with an example' });
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('describes every path and query parameter, with a schema (issue 9, contract §1)', () => {
    const wrong = operations().flatMap(([where, operation]) =>
      (operation.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .filter((p) => !p.description || !p.schema?.type || (p.in === 'path' && p.required !== true))
        .map((p) => ({ where, parameter: p.name, in: p.in, description: p.description, schema: p.schema })),
    );
    expect(wrong).toEqual([]);
  });

  it('gives every 2xx JSON response a schema, and 204 no content (issue 9, contract §1)', () => {
    const wrong: Array<Record<string, unknown>> = [];
    for (const [where, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses).filter(([s]) => /^2/.test(s))) {
        const content = Object.entries(response.content ?? {});
        if (status === '204') {
          if (content.length) wrong.push({ where, status, needs: 'no content' });
          continue;
        }
        if (!content.length) wrong.push({ where, status, needs: 'a body' });
        for (const [type, media] of content) {
          if (NON_JSON.test(type)) continue;
          const schema = media.schema ? resolve(media.schema) : undefined;
          if (!schema || !(schema.type || schema.properties || schema.allOf || schema.oneOf)) wrong.push({ where, status, type, needs: 'a schema' });
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('gives every problem response an example whose status is the response\'s and whose reason.code is in the catalogue (issue 9, contract §1, §2)', () => {
    const wrong: Array<Record<string, unknown>> = [];
    let seen = 0;
    for (const [where, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses).filter(([s]) => /^[45]/.test(s))) {
        const media = response.content?.['application/problem+json'];
        if (!media) continue;
        const examples = examplesOf(media);
        if (!examples.length) wrong.push({ where, status, needs: 'an example' });
        for (const example of examples as Array<{ type?: string; status?: number; reason?: { code?: string; message?: string } }>) {
          seen++;
          const code = example.reason?.code ?? '';
          const ok =
            example.type === 'about:blank' &&
            example.status === Number(status) &&
            typeof example.reason?.message === 'string' &&
            code in ERROR_CATALOGUE &&
            STATUS_OF_KIND[ERROR_CATALOGUE[code as ErrorCode]] === Number(status);
          if (!ok) wrong.push({ where, status, example });
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it('documents the problems every route can produce: 401 behind credentials, 400 and 413 with a body, 503 on the bank interfaces (issue 9, contract §1, §2, §7)', () => {
    const wrong: Array<Record<string, unknown>> = [];
    for (const [where, operation] of operations()) {
      const statuses = Object.keys(operation.responses);
      const needs = (status: string, why: string) => {
        if (!statuses.includes(status)) wrong.push({ where, needs: status, why });
      };
      const certificate = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'X-PSD2-CLIENT-TEST-CERT');
      if (operation.security?.length || certificate) needs('401', 'credentials');
      if (operation.requestBody) {
        needs('400', 'a request body');
        needs('413', 'a request body');
      }
      if ((operation.parameters ?? []).some((p) => p.in === 'path' || p.in === 'query')) needs('400', 'parameters');
      if (BANK_INTERFACES.includes(operation.tags?.[0] ?? '')) {
        needs('503', 'planned downtime');
        // The token endpoints answer downtime in their own shape: temporarily_unavailable (contract §2, §7).
        const tokenEndpoint = TOKEN_ENDPOINTS.some((p) => where.endsWith(` ${p}`));
        const examples = examplesOf(operation.responses['503']?.content?.[tokenEndpoint ? 'application/json' : 'application/problem+json']);
        const codes = examples.map((e) => (tokenEndpoint ? (e as { error?: string }).error : (e as { reason?: { code?: string } }).reason?.code));
        const expected = tokenEndpoint ? 'temporarily_unavailable' : 'PLANNED_DOWNTIME';
        if (!codes.includes(expected)) wrong.push({ where, needs: `503 ${expected}`, codes });
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the RFC 6749 errors of the token endpoints, with examples (issue 9, contract §2)', () => {
    for (const path of TOKEN_ENDPOINTS) {
      const operation = doc.paths[path].post;
      expect(operation.tags).toHaveLength(1);
      for (const status of ['400', '401']) {
        const media = operation.responses[status].content!['application/json'];
        const examples = media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
        expect(examples.length).toBeGreaterThan(0);
        for (const example of examples) expect(example).toEqual({ error: expect.any(String), error_description: expect.any(String) });
      }
    }
  });

  describe('what clients and validators read (issue 13)', () => {
    let yamlText: string;
    let part: { info: { description?: string }; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };
    let raw: string;
    beforeAll(async () => {
      raw = (await t.http.get('/openapi.json').expect(200)).text;
      yamlText = (await t.http.get('/mortgage/openapi.yaml').expect(200)).text;
      part = load(yamlText) as typeof part;
    });

    it('is a valid OpenAPI 3 document by @apidevtools/swagger-parser, and Spectral spectral:oas finds zero errors and zero warnings: /openapi.json (issue 13)', async () => {
      expect(await lintOpenApi(raw, false)).toEqual({ valid: true, findings: [] });
    });

    it('is a valid OpenAPI 3 document by @apidevtools/swagger-parser, and Spectral spectral:oas finds zero errors and zero warnings: /mortgage/openapi.yaml (issue 13)', async () => {
      expect(await lintOpenApi(yamlText, true)).toEqual({ valid: true, findings: [] });
    });

    it('a sandbox\'s own document sends /health, the lifecycle routes and the default console `/` to the root with a per-path server; every other path to the prefix (contract §13 Addressing)', async () => {
      const sandbox = await createSandbox(t);
      const prefix = `/sandboxes/${sandbox.sandbox_id}`;
      type PathItem = Record<string, Operation> & { servers?: Array<{ url: string }> };
      const text = (await t.http.get(`${prefix}/openapi.json`).expect(200)).text;
      const prefixed = JSON.parse(text) as { servers: Array<{ url: string }>; paths: Record<string, PathItem> };
      expect(prefixed.servers).toEqual([expect.objectContaining({ url: prefix })]);
      const atRoot = Object.entries(prefixed.paths).filter(([, item]) => item.servers);
      expect(atRoot.map(([path]) => path).sort()).toEqual(['/', '/health', '/sandboxes', '/sandboxes/{sandbox_id}', '/sandboxes/{sandbox_id}/reset']);
      for (const [path, item] of atRoot) expect({ path, servers: item.servers }).toEqual({ path, servers: [expect.objectContaining({ url: '/' })] });
      expect((prefixed.paths['/'].get as Operation & { description?: string }).description).toMatch(/default sandbox's console/);
      // The addresses the document gives answer; the prefix would not.
      await t.http.get('/health').expect(200);
      expect((await t.http.get(`${prefix}/health`)).status).toBe(404);
      // The root's own document keeps one server for every path, and Swagger UI under the prefix shows the sandbox's document.
      expect(Object.values(doc.paths as Record<string, PathItem>).filter((item) => item.servers)).toEqual([]);
      const docsInit = (await t.http.get(`${prefix}/docs/swagger-ui-init.js`).expect(200)).text;
      expect(docsInit).toContain(`"url": "${prefix}"`);
      expect(docsInit).toContain('The service\'s root: this path is not served under a sandbox\'s prefix');
      expect(await lintOpenApi(text, false)).toEqual({ valid: true, findings: [] });
    });

    it('describes `active` of GET /sandbox/maintenance-windows as always sent, an object or null, without `nullable` beside allOf/$ref anywhere (contract §2, §7)', () => {
      const windows = doc.components.schemas.MaintenanceWindowsDto as Schema & { nullable?: boolean };
      const active = windows.properties!.active as Schema & { nullable?: boolean };
      expect(windows.required).toEqual(expect.arrayContaining(['active', 'windows']));
      expect(active).toMatchObject({ type: 'object', nullable: true, required: ['start', 'end'] });
      expect(active.allOf ?? active.$ref).toBeUndefined();
      // OpenAPI 3.0.3: nullable only applies beside a type; strict validators refuse it next to a $ref or allOf.
      const wrong: string[] = [];
      const visit = (value: unknown, at: string): void => {
        if (!value || typeof value !== 'object') return;
        const node = value as Record<string, unknown>;
        if (node.nullable === true && (!node.type || node.allOf || node.$ref || node.oneOf || node.anyOf)) wrong.push(at);
        for (const [key, inner] of Object.entries(node)) visit(inner, `${at}.${key}`);
      };
      visit(doc, '#');
      expect(wrong).toEqual([]);
    });

    it('documents every answer of the token endpoints as RFC 6749 application/json with Cache-Control: no-store: 413 invalid_request, 503 temporarily_unavailable with Retry-After (contract §2)', () => {
      for (const path of TOKEN_ENDPOINTS) {
        const operation = doc.paths[path].post as Operation & { responses: Record<string, { headers?: Record<string, { $ref?: string }> }> };
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413', '503']));
        for (const [status, response] of Object.entries(operation.responses)) {
          expect({ path, status, cacheControl: response.headers?.['Cache-Control'] }).toEqual({ path, status, cacheControl: { $ref: '#/components/headers/Cache-Control' } });
          if (status === '200') continue;
          expect({ path, status, content: Object.keys(response.content ?? {}) }).toEqual({ path, status, content: ['application/json'] });
          expect(response.content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/OAuthErrorDto' });
        }
        expect(operation.responses['413'].content!['application/json'].example).toMatchObject({ error: 'invalid_request' });
        const unavailable = examplesOf(operation.responses['503'].content!['application/json']);
        expect(unavailable.length).toBeGreaterThan(0);
        for (const example of unavailable) expect(example).toMatchObject({ error: 'temporarily_unavailable' });
        expect((operation.responses['503'] as { headers?: Record<string, unknown> }).headers).toHaveProperty('Retry-After');
      }
      expect(doc.components.schemas.OAuthErrorDto.properties!.error.enum).toEqual(expect.arrayContaining(['invalid_request', 'invalid_client', 'temporarily_unavailable']));
    });

    it('defines the response headers once and uses them: X-Request-Id on every response, Retry-After on 429 and 503, WWW-Authenticate on every 401 but the PSD2 token endpoint\'s, Cache-Control where no-store is sent, Sandbox-Hints on every recorded route (contract §2, §5, §7, §14)', () => {
      const headers = (doc.components as { headers?: Record<string, unknown> }).headers ?? {};
      expect(Object.keys(headers).sort()).toEqual(['Cache-Control', 'Deprecation', 'Idempotent-Replayed', 'Link', 'Retry-After', 'Sandbox-Hints', 'Sunset', 'WWW-Authenticate', 'WWW-Authenticate-invalid_request', 'X-Request-Id']);
      const wrong: Array<Record<string, unknown>> = [];
      for (const [where, operation] of operations()) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, { headers?: Record<string, { $ref?: string }> }>)) {
          const has = (name: string) => response.headers?.[name]?.$ref === `#/components/headers/${name}`;
          if (!has('X-Request-Id')) wrong.push({ where, status, needs: 'X-Request-Id' });
          if (['429', '503'].includes(status) && !has('Retry-After')) wrong.push({ where, status, needs: 'Retry-After' });
          if (status === '401' && where !== 'POST /psd2/auth/1.0/token' && !has('WWW-Authenticate')) wrong.push({ where, status, needs: 'WWW-Authenticate' });
          if (status === '401' && where === 'POST /psd2/auth/1.0/token' && response.headers?.['WWW-Authenticate']) wrong.push({ where, status, needsNo: 'WWW-Authenticate' });
          // Contract §2: a bearer given twice or not as one string is a 400 with error="invalid_request", on every route that reads a bearer.
          const readsBearer = ((operation.security ?? []) as Array<Record<string, unknown>>).some((entry) => Object.keys(entry).length > 0);
          const invalidRequest = response.headers?.['WWW-Authenticate']?.$ref === '#/components/headers/WWW-Authenticate-invalid_request';
          if (status === '400' && readsBearer !== invalidRequest) wrong.push({ where, status, [readsBearer ? 'needs' : 'needsNo']: 'WWW-Authenticate-invalid_request' });
          // Cache-Control: no-store on the token endpoints' answers and on the pages and the QR code that show live state (contract §2, §4, §14).
          const noStore = /^POST \/(psd2|api)\/auth\/1\.0\/token$/.test(where) || (NO_STORE_ROUTES.includes(where) && /^2/.test(status));
          if (noStore !== has('Cache-Control')) wrong.push({ where, status, [noStore ? 'needs' : 'needsNo']: 'Cache-Control' });
          // Contract §14: hints come on every route the journal records, never on the admin, lifecycle or journal routes.
          const recorded = !/^[A-Z]+ \/(admin|sandboxes|health|openapi\.json|docs|sandbox\/requests)(\/|$)/.test(where) && !/^[A-Z]+ \/$/.test(where);
          if (recorded !== has('Sandbox-Hints')) wrong.push({ where, status, [recorded ? 'needs' : 'needsNo']: 'Sandbox-Hints' });
        }
      }
      expect(wrong).toEqual([]);
    });

    it('documents what GET /sandboxes/{sandbox_id} answers a browser: the console page as text/html, beside the sandbox as JSON; GET / documents its page as text/html, not the JSON schema (contract §13, §14)', async () => {
      const show = doc.paths['/sandboxes/{sandbox_id}'].get;
      expect(show.responses['200'].content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/SandboxDto' } }, 'text/html': { schema: { type: 'string' } } });
      expect(doc.paths['/'].get.responses['200'].content).toEqual({ 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/ConsoleDto' } } });
      // What is documented is sent: the page, without a key, never cached; the JSON, with the key.
      const sandbox = await createSandbox(t);
      const page = await t.http.get(`/sandboxes/${sandbox.sandbox_id}`).set('Accept', 'text/html').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      for (const path of ['/', '/sandbox/eid']) expect((await t.http.get(path).set('Accept', 'text/html').expect(200)).headers['cache-control']).toBe('no-store');
      expect((await t.http.get('/').set('Accept', 'application/json').expect(200)).headers['cache-control']).toBe('no-store');
    });

    it('documents the retired aliases as deprecated operations with Deprecation, Sunset and a successor Link, and 410 past their end (contract §7, §12)', () => {
      const deprecated = operations().filter(([, operation]) => (operation as { deprecated?: boolean }).deprecated);
      expect(deprecated.length).toBeGreaterThanOrEqual(22);
      const savings = doc.paths['/psd2/savings/2.0/accounts/{accountNumber}/transfers'].post as Operation & { deprecated?: boolean; operationId?: string };
      expect(savings.deprecated).toBe(true);
      expect(savings.operationId).not.toEqual((doc.paths['/psd2/savings/3.0/accounts/{accountNumber}/transfers'].post as { operationId?: string }).operationId);
      const headersOf = (operation: Operation, status: string) => Object.keys((operation.responses[status] as { headers?: object }).headers ?? {}).sort();
      expect(headersOf(savings, '201')).toEqual(['Deprecation', 'Idempotent-Replayed', 'Link', 'Sandbox-Hints', 'Sunset', 'X-Request-Id']);
      expect(headersOf(savings, '410')).toEqual(['Link', 'Sandbox-Hints', 'X-Request-Id']);
      expect(doc.paths['/api/loan-application/1.0/mortgages/sign-bankid/{loanApplicationId}/applicant/{participantId}']?.put).toBeDefined();
      expect(doc.paths['/partner/api/signing/1.0/start']?.post).toBeDefined();
      expect(doc.paths['/applications/pre-approval']?.post).toBeDefined();
      // The pre-approval path that never ends: Deprecation only, and no 410 (contract §12).
      const forever = doc.paths['/api/loan-application/1.0/mortgages/preapproval'].post;
      expect(headersOf(forever, '201')).toEqual(['Deprecation', 'Idempotent-Replayed', 'Link', 'Sandbox-Hints', 'X-Request-Id']);
      expect(forever.responses).not.toHaveProperty('410');
    });

    it('names a server, opaque bearer values, a description on every operation, one entry per security scheme, unique operationIds without [n] (issue 13)', () => {
      const full = doc as unknown as { servers?: Array<{ url: string }>; components: { securitySchemes: Record<string, { bearerFormat?: string }> } };
      expect(full.servers?.length).toBeGreaterThan(0);
      for (const [name, scheme] of Object.entries(full.components.securitySchemes)) expect({ name, bearerFormat: scheme.bearerFormat }).toEqual({ name, bearerFormat: undefined });
      const ids = operations().map(([, operation]) => (operation as { operationId?: string }).operationId ?? '');
      expect(ids.filter((id) => /\[\d+\]$/.test(id) || !id)).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
      const wrong = operations().flatMap(([where, operation]) => {
        const o = operation as { description?: string; security?: unknown[] };
        const security = (o.security ?? []).map((entry) => JSON.stringify(entry));
        return [
          ...(o.description?.trim() ? [] : [{ where, needs: 'a description' }]),
          ...(new Set(security).size === security.length ? [] : [{ where, duplicateSecurity: security }]),
        ];
      });
      expect(wrong).toEqual([]);
    });

    it('/mortgage/openapi.yaml carries only the components its operations use, and its own description (issue 13)', () => {
      expect(part.info.description).toMatch(/mortgage/i);
      expect(part.info.description).not.toEqual((doc as unknown as { info: { description?: string } }).info.description);
      const refs = new Set([...yamlText.matchAll(/\$ref: '?#\/components\/(\w+)\/([\w-]+)/g)].map((m) => `${m[1]}/${m[2]}`));
      const defined = Object.entries(part.components).filter(([kind]) => kind !== 'securitySchemes').flatMap(([kind, items]) => Object.keys(items).map((name) => `${kind}/${name}`));
      expect(defined.filter((name) => !refs.has(name))).toEqual([]);
      expect([...refs].filter((name) => !defined.includes(name))).toEqual([]);
      expect(part.components.schemas).not.toHaveProperty('PutUserDto');
    });

    it('keeps `default` out of request bodies, saying it in the description instead: openapi-typescript types a field with a default as required (issue 13)', () => {
      const wrong: string[] = [];
      for (const [where, operation] of operations().filter(([, o]) => o.requestBody)) {
        for (const [at, property, schema] of propertiesOf(Object.values(operation.requestBody!.content)[0].schema!, where)) {
          if ('default' in schema) wrong.push(`${at}.${property}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(doc.components.schemas.PutUserDto.properties!.eid_behaviour.description).toMatch(/Default: "AUTO_COMPLETE"/);
    });

    it('sends X-Request-Id on answers given before routing, as every response does: a body over 1 MB (contract §14)', async () => {
      const res = await t.http.put('/admin/users/191212121212').set('Content-Type', 'application/json').send(`{"name":"${'x'.repeat(1024 * 1024)}"}`).expect(413);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const given = await t.http.get('/health').set('X-Request-Id', 'trace-42').expect(200);
      expect(given.headers['x-request-id']).toBe('trace-42');
    });

    it('fails a response that differs from the document: every e2e request is checked by the harness (issue 13)', () => {
      const validator = new OpenApiResponseValidator(JSON.parse(raw));
      const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8', headers: Record<string, string> = {}) =>
        ({ status, body, text: JSON.stringify(body), headers: { 'content-type': contentType, 'x-request-id': 'r-1', ...headers } }) as unknown as Response;
      const healthy = { status: 'ok', details: { journal: { recording: true, buffered: 0, written: 0, lost: 0, failed_writes: 0, redaction_failed: 0 }, logs: { redaction_failed: 0 } } };
      expect(() => validator.check('GET', 'http://sandbox/health', answer(200, healthy))).not.toThrow();
      expect(() => validator.check('GET', 'http://sandbox/health', answer(200, { ...healthy, extra: 1 }))).toThrow(/additional properties/);
      expect(() => validator.check('GET', 'http://sandbox/health', answer(418, healthy))).toThrow(/status 418 is not documented/);
      expect(() => validator.check('GET', 'http://sandbox/health', answer(200, healthy, 'text/plain'))).toThrow(/content type "text\/plain"/);
      expect(() => validator.check('GET', 'http://sandbox/health', { ...answer(200, healthy), headers: { 'content-type': 'application/json' } } as never)).toThrow(/X-Request-Id is missing/);
      const notFound = { type: 'about:blank', title: 'Not Found', status: 404, instance: '/nowhere', reason: { code: 'NOT_FOUND', message: 'No route matches this method and path.' } };
      expect(() => validator.check('GET', 'http://sandbox/nowhere', answer(404, notFound, 'application/problem+json; charset=utf-8'))).not.toThrow();
      expect(() => validator.check('GET', 'http://sandbox/nowhere', answer(200, {}))).toThrow(/not in the document/);
    });
  });
});
