import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_TAG, ApiInterface, asksForHtml, NoStore, Public, type RequestWithSandbox, sandboxPrefixOf } from '@app/common';
import { ConsoleDto } from './console.dto';
import { ConsoleService } from './console.service';
import { renderConsolePage } from './console-page';

/** GET /: the sandbox's home page for a browser, its facts as JSON for anyone else (contract §14). */
@ApiInterface(API_TAG.sandbox)
@ApiExtraModels(ConsoleDto)
@Public()
@Controller()
export class ConsoleController {
  constructor(private readonly console: ConsoleService) {}

  @Get()
  @NoStore()
  @ApiOperation({
    summary: 'The console: this sandbox, its clock and links; with the admin key, its clock controls, users, open eid orders and live request journal',
    description:
      'Asked for text/html (a browser), the home page of contract §14: server-rendered, for the default sandbox at `/` and for a created one at ' +
      '`/sandboxes/{sandbox_id}` (which answers the sandbox as JSON otherwise). The admin key typed into the page stays in its memory. ' +
      'Any other client (one that names no type, or only `*/*`) gets the same facts as JSON. Not recorded in the journal.',
  })
  @ApiProduces('text/html', 'application/json')
  // `content`, not `type`: with `type` every produced media type would get the JSON schema, the page too.
  @ApiOkResponse({
    description: 'The page, or the facts as JSON',
    content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: getSchemaPath(ConsoleDto) } } },
  })
  async home(@Req() req: Request & RequestWithSandbox, @Res({ passthrough: true }) res: Response): Promise<ConsoleDto | string> {
    const prefix = sandboxPrefixOf(req) ?? '';
    const facts = await this.console.describe(prefix);
    res.vary('Accept');
    if (!asksForHtml(req)) return facts;
    res.type('html');
    return renderConsolePage(facts, prefix);
  }
}
