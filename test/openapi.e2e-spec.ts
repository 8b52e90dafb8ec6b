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

describe('OpenAPI description (contract §1)', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, { summary?: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    components: { schemas: Record<string, unknown> };
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
});
