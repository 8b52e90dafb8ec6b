import { Controller, Get, Header } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { API_TAG, ApiInterface, OpenApiDocument, Public } from '@app/common';

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
  return { ...document, tags: (document.tags ?? []).filter((tag) => tags.includes(tag.name)), paths };
}

@ApiInterface(API_TAG.mortgage)
@Controller()
export class MortgageOpenApiController {
  private yaml: string | null = null;

  constructor(private readonly document: OpenApiDocument) {}

  @Get(['mortgage/openapi.yaml', 'partner/mortgage/openapi.yaml'])
  @Public()
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @ApiOperation({
    summary: 'The mortgage and signing part of the OpenAPI description, as YAML (bank §4.5)',
    description: 'The operations tagged mortgage or signing, generated from the same decorators as /openapi.json; no credentials needed.',
  })
  @ApiProduces('application/yaml')
  @ApiOkResponse({ description: 'OpenAPI 3 YAML', content: { 'application/yaml': { schema: { type: 'string' } } } })
  mortgageOpenApi(): string {
    this.yaml ??= dump(this.part(), { noRefs: true, lineWidth: 120 });
    return this.yaml;
  }

  private part(): OpenAPIObject {
    const document = this.document.get();
    const part = openApiPart(document, PART_TAGS);
    return { ...part, info: { ...part.info, title: `${document.info.title}: mortgage and signing` } };
  }
}
