import { type INestApplication, Injectable } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { type RequestWithSandbox, sandboxPrefixOf } from '../sandbox/request-sandbox';
import { ProblemDto, ProblemReasonDto } from './api-problems.decorator';
import { API_TAGS } from './api-tags';
import { describeHeaderRules, describeIdempotency, describeResponseHeaders, describeSandboxReset, finishDocument, ROOT_ONLY_PATHS } from './openapi-finish';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Bank API sandbox')
    .setDescription(
      'A sandbox of a Swedish bank\'s open-banking (PSD2) and partner interfaces, with the sandbox\'s own ' +
        'admin and helper routes. Errors are application/problem+json (bank §2.8) except on the OAuth ' +
        'token endpoints. Time rules follow the sandbox clock (/admin/clock). Bounded work (contract §2): on ' +
        'every route a JSON body nested deeper than 32 levels, an object of more than 1 000 members, an array ' +
        'of more than 10 000 elements or a query of more than 1 000 parameters is 400 VALIDATION_FAILED naming ' +
        'the place in dot notation (invalid_request at the token endpoints); a message names at most 10 ' +
        'problems and counts the rest ("… and 990 more"); no error body is larger than 16 KB.',
    )
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_API_KEY' }, 'admin')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A PSD2 access token from POST /psd2/auth/1.0/token' }, 'psd2-token')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A partner api key (POST /admin/partners), or its client-credentials token' }, 'partner')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An enterprise end-user token (grant_type=pending_authorization_code)' }, 'enterprise-end-user');
  // One tag per interface, declared in the order /docs shows them (issue 9).
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  const config = builder.build();
  const document = closeRequestBodySchemas(SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto, ProblemReasonDto] }));
  finishDocument(document);
  describeIdempotency(document);
  describeHeaderRules(document);
  describeSandboxReset(document);
  return document;
}

/**
 * Every schema a JSON request body refers to (nested DTOs too) says `additionalProperties: false`,
 * as the validation pipe enforces (contract §2: an unknown field is 400). Form bodies are left open:
 * the token endpoints ignore unknown parameters (RFC 6749 §3.2).
 */
export function closeRequestBodySchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const closed = new Set<string>();
  const close = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(close);
    if (typeof node !== 'object' || node === null) return;
    const schema = node as Record<string, unknown>;
    const ref = typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : null;
    if (ref !== null) {
      if (closed.has(ref) || !schemas[ref]) return;
      closed.add(ref);
      return close(schemas[ref]);
    }
    if (schema.type === 'object' || schema.properties) schema.additionalProperties = false;
    for (const key of ['properties', 'items', 'allOf', 'oneOf', 'anyOf'] as const) {
      const child = schema[key];
      if (key === 'properties' && child && typeof child === 'object') Object.values(child).forEach(close);
      else close(child);
    }
  };
  for (const path of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(path ?? {})) {
      const content = (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } })?.requestBody?.content;
      close(content?.['application/json']?.schema);
    }
  }
  return document;
}

/** A change a module makes to the document after the decorators built it (e.g. the retired aliases of contract §12). */
export type OpenApiTransform = (document: OpenAPIObject) => void;

/**
 * The document, built on first use (after every module registered its transforms in onModuleInit), for
 * /openapi.json and the routes that serve parts of it (e.g. /mortgage/openapi.yaml).
 */
@Injectable()
export class OpenApiDocument {
  private app: INestApplication | null = null;
  private document: OpenAPIObject | null = null;
  private readonly transforms: OpenApiTransform[] = [];

  /** Called in onModuleInit by modules that add to the document. */
  addTransform(transform: OpenApiTransform): void {
    if (this.document) throw new Error('OpenAPI transforms are registered in onModuleInit, before the document is first built');
    this.transforms.push(transform);
  }

  setApp(app: INestApplication): void {
    this.app = app;
  }

  get(): OpenAPIObject {
    if (!this.document) {
      if (!this.app) throw new Error('The OpenAPI document is set up by configureHttp before the app serves requests');
      const document = buildOpenApiDocument(this.app);
      for (const transform of this.transforms) transform(document);
      describeResponseHeaders(document);
      this.document = document;
    }
    return this.document;
  }
}

/** The `servers` of a description served under a sandbox's prefix (contract §13 Addressing). */
export function sandboxServers(prefix: string): Array<{ url: string; description: string }> {
  return [{ url: prefix, description: 'This sandbox: its prefix on the origin that serves this document' }];
}

const CONSOLE_AT_THE_ROOT =
  'In this sandbox\'s document: served at the root only, as the default sandbox\'s console. Under this sandbox\'s prefix `/` is the lifecycle route ' +
  '`GET /sandboxes/{sandbox_id}`, which answers this sandbox\'s console page to a browser (text/html) and the sandbox as JSON otherwise.';

/**
 * The description as served under a sandbox's prefix (contract §13 Addressing): its server is the
 * prefix, and each root-only path keeps the root as its own server, so Try it out and generated
 * clients call the address that exists. The built document is shared: only copies are changed.
 */
export function sandboxDocument(document: OpenAPIObject, prefix: string): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]): [string, OpenAPIObject['paths'][string]] => {
      if (!ROOT_ONLY_PATHS.test(path)) return [path, item];
      const atRoot = { ...item, servers: [{ url: '/', description: 'The service\'s root: this path is not served under a sandbox\'s prefix (contract §13)' }] };
      if (path === '/' && atRoot.get) atRoot.get = { ...atRoot.get, description: `${atRoot.get.description ?? ''}\n\n${CONSOLE_AT_THE_ROOT}`.trim() };
      return [path, atRoot];
    }),
  );
  return { ...document, servers: sandboxServers(prefix), paths };
}

/** GET /openapi.json and Swagger UI at /docs, both without auth (contract §1); the document is built on first request. */
export function setupOpenApi(app: INestApplication): void {
  const holder = app.get(OpenApiDocument);
  holder.setApp(app);
  SwaggerModule.setup(DOCS_PATH, app, () => holder.get(), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: '/openapi.yaml',
    customSiteTitle: 'Bank API sandbox',
    // Under a sandbox's prefix the document names that prefix as its server, root-only paths the root (contract §13 Addressing).
    patchDocumentOnRequest: (request, _response, document) => {
      const prefix = sandboxPrefixOf(request as RequestWithSandbox);
      return prefix ? sandboxDocument(document, prefix) : document;
    },
  });
}
