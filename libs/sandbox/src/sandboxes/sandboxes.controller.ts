import { Body, Controller, createParamDecorator, Delete, ExecutionContext, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, getSchemaPath } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, AdminOrSelfService, API_TAG, ApiInterface, ApiProblems, parseSandboxId, SANDBOX_CLOCK_RANGE, SelfServiceCaller, Idempotent } from '@app/common';
import type { Request } from 'express';
import { CreateSandboxDto, ListSandboxesQueryDto, SandboxCreatedDto, SandboxDto, SandboxListDto } from './sandbox.dto';
import { SandboxesService } from './sandboxes.service';

/** A Host a URL can carry: a name or an IPv4 address, or an IPv6 address in brackets, and a port. */
const USABLE_HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(:\d{1,5})?$/;

/**
 * The address the request arrived on, as a URL host: for a request without a usable Host (HTTP/1.0
 * may send none; an empty Host names none). An IPv4-mapped IPv6 address is written as IPv4.
 */
function arrivalAddress(request: Request): string {
  const { localAddress, localPort } = request.socket;
  if (!localAddress) return 'localhost';
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return `${address.includes(':') ? `[${address}]` : address}${localPort ? `:${localPort}` : ''}`;
}

/**
 * The request's scheme and host (`base_url` is absolute, contract §13; the routing keeps these
 * routes at the root); without a usable Host, the address the request arrived on.
 */
const Origin = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<Request>();
  const host = request.get('host');
  return `${request.protocol}://${host && USABLE_HOST.test(host) ? host : arrivalAddress(request)}`;
});

/** `default` or a UUID; else 400 naming sandbox_id. */
const SANDBOX_ID = { transform: parseSandboxId };

const SANDBOX_ID_PARAM = ApiParam({ name: 'sandbox_id', description: '`default` or the UUID POST /sandboxes answered', example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13' });
const OWN_KEY = { status: 401, description: 'No Authorization: Bearer <ADMIN_API_KEY or this sandbox\'s admin_key>, or a wrong key' } as const;

@ApiInterface(API_TAG.admin)
@AdminOnly()
@Controller('sandboxes')
export class SandboxesController {
  constructor(private readonly service: SandboxesService) {}

  @Post()
  @HttpCode(201)
  @AdminOrSelfService()
  @Idempotent({ owner: 'service' })
  @ApiOperation({
    summary: 'Create a sandbox',
    description:
      'An isolated copy of the bank\'s world with its own clock, served under `base_url` (contract §13). `admin_key` and `demo_partner_key` are shown only in this answer. ' +
      'Operator key; with SANDBOX_SELF_SERVICE on also without any key, then at most SANDBOX_CREATE_PER_HOUR per caller over a sliding 60 real minutes ' +
      '(the caller is the IPv4 address, or the IPv6 /64 network; an IPv4-mapped IPv6 address is its IPv4 address, every loopback address one caller), ' +
      'self-service creations fill at most SANDBOX_SELF_SERVICE_MAX of the sandboxes, and a self-service fixture holds at most 100 users and 1 000 accounts. ' +
      'The answer comes once the sandbox is seeded; creations wait for no other creation\'s seeding (contract §13).',
  })
  @ApiCreatedResponse({ type: SandboxCreatedDto })
  @ApiProblems(
    ...ADMIN_PROBLEMS,
    {
      status: 400,
      description: `A field missing or malformed, clock.now outside the clock's range, ${SANDBOX_CLOCK_RANGE.earliest.toISOString()} to ${SANDBOX_CLOCK_RANGE.latest.toISOString()}, or (self-service) a fixture of more than 100 users or 1 000 accounts (VALIDATION_FAILED names it)`,
    },
    { status: 409, code: 'SANDBOX_LIMIT_REACHED', description: 'SANDBOX_MAX sandboxes exist, or (self-service) SANDBOX_SELF_SERVICE_MAX of them were created without a key' },
    413,
    { status: 429, code: 'RATE_LIMITED', description: 'Self-service: SANDBOX_CREATE_PER_HOUR creations from this caller (IPv4 address or IPv6 /64) within 60 minutes (Retry-After: seconds until the oldest leaves the window)' },
    {
      status: 503,
      code: 'CONCURRENT_CHANGES',
      description: 'The reservation of this creation was cleared away before its seeding began (only after a stall of 10 minutes): nothing was created; send it again after Retry-After (1 s)',
      message: 'The sandbox being created was cleared away meanwhile: create it again.',
    },
  )
  create(@Body() dto: CreateSandboxDto, @Origin() origin: string, @SelfServiceCaller() selfServiceCaller: string | null): Promise<SandboxCreatedDto> {
    return this.service.create(dto, origin, selfServiceCaller);
  }

  @Get()
  @ApiOperation({ summary: 'List the sandboxes', description: 'In id order, a page at a time (`limit`, default 100, at most 500; `after`: the previous page\'s `next_after`); the default sandbox too. Never a key. Operator key only.' })
  @ApiOkResponse({ type: SandboxListDto })
  @ApiProblems(...ADMIN_PROBLEMS, { status: 400, description: 'limit or after malformed' })
  list(@Query() query: ListSandboxesQueryDto, @Origin() origin: string): Promise<SandboxListDto> {
    return this.service.list(query, origin);
  }

  @Get(':sandbox_id')
  @SANDBOX_ID_PARAM
  @ApiOperation({
    summary: 'A sandbox',
    description:
      'With the operator key or the sandbox\'s own admin key. Never a key. A client that prefers text/html (a browser) gets that sandbox\'s console page ' +
      'instead, without a key, with Cache-Control: no-store (contract §13, §14; the page of GET / under its prefix).',
  })
  // `content`, not `type`: the page is HTML, not the JSON schema.
  @ApiExtraModels(SandboxDto)
  @ApiOkResponse({
    description: 'The sandbox as JSON; to a browser, its console page',
    content: { 'application/json': { schema: { $ref: getSchemaPath(SandboxDto) } }, 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems(OWN_KEY, ADMIN_PROBLEMS[1], { status: 400, description: 'sandbox_id neither `default` nor a UUID' }, { status: 404, description: 'No such sandbox' })
  show(@Param('sandbox_id', SANDBOX_ID) sandboxId: string, @Origin() origin: string): Promise<SandboxDto> {
    return this.service.show(sandboxId, origin);
  }

  @Post(':sandbox_id/reset')
  @HttpCode(200)
  @SANDBOX_ID_PARAM
  @ApiOperation({
    summary: 'Reset a sandbox',
    description:
      'As newly created, in one transaction: data wiped, demo set and fixture seeded again, clock back to its creation setting; id and keys kept. The default sandbox gets the demo set per SEED_DEMO and real time. ' +
      'A request to the sandbox in flight meanwhile runs before or after the reset, or answers 503 SANDBOX_RESET with Retry-After: 1 (send it again); resets and deletes of one sandbox run one after another.',
  })
  @ApiOkResponse({ type: SandboxDto })
  @ApiProblems(OWN_KEY, ADMIN_PROBLEMS[1], { status: 400, description: 'sandbox_id neither `default` nor a UUID' }, { status: 404, description: 'No such sandbox' })
  reset(@Param('sandbox_id', SANDBOX_ID) sandboxId: string, @Origin() origin: string): Promise<SandboxDto> {
    return this.service.reset(sandboxId, origin);
  }

  @Delete(':sandbox_id')
  @HttpCode(204)
  @SANDBOX_ID_PARAM
  @ApiOperation({
    summary: 'Delete a sandbox',
    description:
      'All its data goes with it; its routes answer 404 at once here and within a second on other instances, and a request to it in flight meanwhile finishes or answers 404. The default sandbox cannot be deleted (409).',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(
    OWN_KEY,
    ADMIN_PROBLEMS[1],
    { status: 400, description: 'sandbox_id neither `default` nor a UUID' },
    { status: 404, description: 'No such sandbox' },
    { status: 409, code: 'INVALID_STATE', description: 'The default sandbox' },
  )
  async delete(@Param('sandbox_id', SANDBOX_ID) sandboxId: string): Promise<void> {
    await this.service.delete(sandboxId);
  }
}
