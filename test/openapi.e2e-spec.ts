import { ERROR_CATALOGUE, type ErrorCode, STATUS_OF_KIND } from '@app/common';
import { createTestApp, TestApp } from './support/test-app';

/** Routes Swagger itself serves (they document the others), and Nest's catch-all 404 route. */
const DOCUMENTATION_ROUTES = /^\/(docs|openapi\.(json|yaml))|\*splat/;

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
const NOT_UUID_IDS = ['organization_id', 'client_id', 'user_id'];

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
          const oauth = TOKEN_ENDPOINTS.includes(path) && ['400', '401', '403'].includes(status);
          expect({ where, status, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({
            where,
            status,
            content: [oauth ? 'application/json' : 'application/problem+json'],
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
        if ((property === 'id' || /_id$/.test(property)) && !NOT_UUID_IDS.includes(property)) {
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
        const examples = media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
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
        const code = (operation.responses['503']?.content?.['application/problem+json']?.example as { reason?: { code?: string } } | undefined)?.reason?.code;
        if (code !== 'PLANNED_DOWNTIME') wrong.push({ where, needs: '503 PLANNED_DOWNTIME', code });
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
});
