import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { OpenApiDocument, Public } from '@app/common';

/** The paths of the mortgage and signing interfaces (bank §4.4, §4.5, §9 rules 6–7), with and without /partner. */
const MORTGAGE_AND_SIGNING = /^(\/partner)?\/(mortgage\/|signing\/|api\/loan-application\/|api\/interest-rates\/)/;

@ApiTags('Mortgage')
@Controller()
export class MortgageOpenApiController {
  private yaml: string | null = null;

  constructor(private readonly document: OpenApiDocument) {}

  @Get(['mortgage/openapi.yaml', 'partner/mortgage/openapi.yaml'])
  @Public()
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @ApiOperation({
    summary: 'The mortgage and signing part of the OpenAPI description, as YAML (bank §4.5)',
    description: 'Generated from the same decorators as /openapi.json; no credentials needed.',
  })
  @ApiProduces('application/yaml')
  @ApiOkResponse({ description: 'OpenAPI 3 YAML' })
  mortgageOpenApi(): string {
    this.yaml ??= dump(this.part(), { noRefs: true, lineWidth: 120 });
    return this.yaml;
  }

  private part() {
    const document = this.document.get();
    const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => MORTGAGE_AND_SIGNING.test(path)));
    return {
      ...document,
      info: { ...document.info, title: `${document.info.title}: mortgage and signing` },
      paths,
    };
  }
}
