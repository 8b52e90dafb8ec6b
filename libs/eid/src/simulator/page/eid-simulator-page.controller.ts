import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_TAG, ApiInterface, ApiProblems, asksForHtml, NoStore, Public, type RequestWithSandbox, sandboxPrefixOf } from '@app/common';
import { EidSimulatorPageService } from './eid-simulator-page.service';
import { EidSimulatorPageQueryDto } from './eid-simulator-page.dto';
import { renderEidSimulatorPage } from './eid-simulator-page';
import { EID_ORDER_CONTENDED } from '../../eid.errors';

/** GET /sandbox/eid: the simulator as a web page for testers (contract §4). */
@ApiInterface(API_TAG.sandbox)
@Public()
@Controller('sandbox/eid')
export class EidSimulatorPageController {
  constructor(private readonly pages: EidSimulatorPageService) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @NoStore()
  @ApiOperation({
    summary: 'The eid simulator page: open an order, find phone orders, approve, fail or answer a call',
    description:
      'Server-rendered HTML for testers. `?autostarttoken=` (what the launch URI eid://autostarttoken=… maps to) opens ' +
      'that order in the app; `?operation_id=` shows one order; `?personal_number=` lists that person\'s open phone ' +
      'orders. An unknown order or a malformed personal number is shown on the page with status 404 or 400 to a client ' +
      'that names text/html and prefers it (a browser); any other client (`Accept: */*` as curl sends, none, ' +
      'application/json) gets it as problem+json (contract §2).',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiProblems(
    {
      status: 400,
      description: 'A malformed query value: shown on the page to a browser, else a problem (contract §2)',
      alsoAs: { 'text/html': { schema: { type: 'string' } } },
    },
    {
      status: 404,
      description: 'An unknown order: shown on the page to a browser, else a problem (contract §2)',
      alsoAs: { 'text/html': { schema: { type: 'string' } } },
    },    // Opening or showing an order applies its time rules, which may change it.
    EID_ORDER_CONTENDED,
  )
  async page(@Query() query: EidSimulatorPageQueryDto, @Req() req: Request & RequestWithSandbox, @Res({ passthrough: true }) res: Response): Promise<string> {
    // A browser (it names text/html) gets its errors on the page; every other client, `*/*` too, the
    // problem+json of contract §2. The page itself is HTML for everyone: this route is the page.
    const model = await this.pages.load(query, { errorsOnPage: asksForHtml(req) });
    res.status(model.error?.status ?? 200);
    return renderEidSimulatorPage({ ...model, prefix: sandboxPrefixOf(req) });
  }
}
