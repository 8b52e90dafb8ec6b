import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_TAG, ApiInterface, ApiProblems, prefersHtml, Public, type RequestWithSandbox, sandboxPrefixOf } from '@app/common';
import { EidSimulatorPageService } from './eid-simulator-page.service';
import { EidSimulatorPageQueryDto } from './eid-simulator-page.dto';
import { renderEidSimulatorPage } from './eid-simulator-page';

/** GET /sandbox/eid: the simulator as a web page for testers (contract §4). */
@ApiInterface(API_TAG.sandbox)
@Public()
@Controller('sandbox/eid')
export class EidSimulatorPageController {
  constructor(private readonly pages: EidSimulatorPageService) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'The eid simulator page: open an order, find phone orders, approve, fail or answer a call',
    description:
      'Server-rendered HTML for testers. `?autostarttoken=` (what the launch URI eid://autostarttoken=… maps to) opens ' +
      'that order in the app; `?operation_id=` shows one order; `?personal_number=` lists that person\'s open phone ' +
      'orders. An unknown order or a malformed personal number is shown on the page with status 404 or 400; a client ' +
      'that prefers application/json (or does not accept text/html) gets it as problem+json instead.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiProblems(
    {
      status: 400,
      description: 'A malformed query value: shown on the page, or a problem for a client that accepts application/json (contract §2)',
      alsoAs: { 'text/html': { schema: { type: 'string' } } },
    },
    {
      status: 404,
      description: 'An unknown order: shown on the page, or a problem for a client that accepts application/json (contract §2)',
      alsoAs: { 'text/html': { schema: { type: 'string' } } },
    },
  )
  async page(@Query() query: EidSimulatorPageQueryDto, @Req() req: Request & RequestWithSandbox, @Res({ passthrough: true }) res: Response): Promise<string> {
    // A browser gets its errors on the page; a JSON client gets the problem+json of contract §2.
    const model = await this.pages.load(query, { errorsOnPage: prefersHtml(req) });
    res.status(model.error?.status ?? 200);
    return renderEidSimulatorPage({ ...model, prefix: sandboxPrefixOf(req) });
  }
}
