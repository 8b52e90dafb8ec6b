import { Controller, Get, Header, Req } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { API_TAG, ApiInterface, OpenApiDocument, Public, type RequestWithSandbox, sandboxPrefixOf, sandboxServers } from '@app/common';

/**
 * The interfaces this part holds: mortgage (pre-approval, loan applications, interest rates; bank
 * §4.5, §9 rules 6–7) and signing (bank §4.4), each with and without /partner (contract §1).
 */
const PART_TAGS: readonly string[] = [API_TAG.signing, API_TAG.mortgage];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The operations of `document` tagged with one of `tags`, with the tags they use: the rest is kept as it is. */
function openApiPart(document: OpenAPIObject, tags: readonly string[]): OpenAPIObject {
  const inPart = (operation: unknown) => ((operation as { tags?: string[] } | undefined)?.tags ?? []).some((tag) => tags.includes(tag));
  const paths = Object.fromEntries(
    Object.entries(document.paths).flatMap(([path, item]) => {
      const kept = Object.fromEntries(
        Object.entries(item).filter(([key, value]) => !(METHODS as readonly string[]).includes(key) || inPart(value)),
      );
      return METHODS.some((method) => kept[method]) ? [[path, kept]] : [];
    }),
  );
  return { ...document, tags: (document.tags ?? []).filter((tag) => tags.includes(tag.name)), paths, components: usedComponents(document, paths) };
}

/** Only the components the part's operations reach (issue 13: Spectral's oas3-unused-component). */
function usedComponents(document: OpenAPIObject, paths: OpenAPIObject['paths']): OpenAPIObject['components'] {
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const used: Record<string, Record<string, unknown>> = {};
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    const ref = (value as { $ref?: unknown }).$ref;
    const [, kind, name] = typeof ref === 'string' ? (/^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? []) : [];
    if (kind && name && !used[kind]?.[name] && components[kind]?.[name]) {
      (used[kind] ??= {})[name] = components[kind][name];
      visit(components[kind][name]);
    }
    Object.values(value).forEach(visit);
  };
  visit(paths);
  const schemes = new Set(
    Object.values(paths).flatMap((item) =>
      METHODS.flatMap((method) => ((item as Record<string, { security?: Array<Record<string, unknown>> }>)[method]?.security ?? []).flatMap((entry) => Object.keys(entry))),
    ),
  );
  const securitySchemes = Object.fromEntries(Object.entries(components.securitySchemes ?? {}).filter(([name]) => schemes.has(name)));
  return { ...used, ...(schemes.size ? { securitySchemes } : {}) } as OpenAPIObject['components'];
}

@ApiInterface(API_TAG.mortgage)
@Controller()
export class MortgageOpenApiController {
  /** The part without `servers`, written once; each answer puts its own `servers` first. */
  private yamlWithoutServers: string | null = null;
  private defaultServers: string | null = null;

  constructor(private readonly document: OpenApiDocument) {}

  @Get(['mortgage/openapi.yaml', 'partner/mortgage/openapi.yaml'])
  @Public()
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @ApiOperation({
    summary: 'The mortgage and signing part of the OpenAPI description, as YAML (bank §4.5)',
    description:
      'The operations tagged mortgage or signing, generated from the same decorators as /openapi.json; no credentials needed. ' +
      'Under a sandbox\'s prefix its `servers` names that prefix, as /openapi.json does (contract §13).',
  })
  @ApiProduces('application/yaml')
  @ApiOkResponse({ description: 'OpenAPI 3 YAML', content: { 'application/yaml': { schema: { type: 'string' } } } })
  mortgageOpenApi(@Req() request: RequestWithSandbox): string {
    if (this.yamlWithoutServers === null) {
      const { servers, ...part } = this.part();
      this.yamlWithoutServers = dump(part, { noRefs: true, lineWidth: 120 });
      this.defaultServers = dump({ servers });
    }
    // Top-level keys of one mapping: the servers block and the rest concatenate into one document.
    const prefix = sandboxPrefixOf(request);
    const servers = prefix ? dump({ servers: sandboxServers(prefix) }) : this.defaultServers;
    return `${servers}${this.yamlWithoutServers}`;
  }

  private part(): OpenAPIObject {
    const document = this.document.get();
    const part = openApiPart(document, PART_TAGS);
    return {
      ...part,
      info: {
        ...part.info,
        title: `${document.info.title}: mortgage and signing`,
        description:
          'The partner interfaces of the sandbox: mortgage pre-approval, loan applications 2.0 and the effective interest rate ' +
          '(bank §4.5, §9 rules 6–7; contract §9), and partner signing (bank §4.4; contract §11), each with and without the ' +
          '/partner prefix, authenticated by the partner api key (or its client-credentials token) as bearer. Errors are ' +
          'application/problem+json (bank §2.8). Part of /openapi.json, which describes every route of the sandbox.',
      },
    };
  }
}
