import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, type JournalCaller } from '@app/common';
import { JournalEntryDto, JournalPageDto, JournalQueryDto } from './journal.dto';
import { CurrentJournalReader, JournalReader } from './journal-reader.strategy';
import { JournalService } from './journal.service';

const LIST_DESCRIPTION =
  'Every request to this sandbox (bank routes and /sandbox/*; not /admin/*, /health, /docs, /openapi.json, the console page nor these reads), ' +
  'redacted, with its hints (contract §14). Newest first in arrival order; `since` and `until` compare real arrival times (`at` is the sandbox clock). ' +
  'Pages: pass `next_after` as `after`; the last page has no `next_after`. Entries are written within a second of their request.';
const REQUEST_ID_PARAM = { name: 'request_id', description: 'The X-Request-Id of the request', example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13' };

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/requests')
export class AdminRequestsController {
  constructor(private readonly journal: JournalService) {}

  @Get()
  @ApiOperation({ summary: 'The request journal of this sandbox', description: LIST_DESCRIPTION })
  @ApiOkResponse({ type: JournalPageDto })
  @ApiProblems({ status: 400, description: 'A filter with a bad value, e.g. since or until not an ISO 8601 date-time with an offset or Z (VALIDATION_FAILED names it)' })
  listRequests(@Query() query: JournalQueryDto): Promise<JournalPageDto> {
    return this.journal.page(query);
  }

  @Get(':request_id')
  @ApiOperation({ summary: 'One journal entry', description: 'The newest entry with this request id (a client may reuse one).' })
  @ApiParam(REQUEST_ID_PARAM)
  @ApiOkResponse({ type: JournalEntryDto })
  @ApiProblems(400, { status: 404, description: 'No entry with this request id' })
  getRequest(@Param('request_id') requestId: string): Promise<JournalEntryDto> {
    return this.journal.entry(requestId);
  }
}

@ApiInterface(API_TAG.sandbox)
@JournalReader()
@ApiProblems({ status: 401, description: 'Neither a readable X-PSD2-CLIENT-TEST-CERT nor a known partner key (Authorization: Bearer); on the strict-mode TLS port also CERTIFICATE_REQUIRED (no client certificate) or CERTIFICATE_INVALID (not issued by the sandbox CA, not yet valid, expired or revoked; contract §16)' })
@Controller('sandbox/requests')
export class SandboxRequestsController {
  constructor(private readonly journal: JournalService) {}

  @Get()
  @ApiOperation({
    summary: 'Your own requests to this sandbox',
    description: `A TPP (by its test certificate) or a partner (by its key) sees its own entries only, with the filters of GET /admin/requests. ${LIST_DESCRIPTION}`,
  })
  @ApiOkResponse({ type: JournalPageDto })
  @ApiProblems({ status: 400, description: 'A filter with a bad value, e.g. since or until not an ISO 8601 date-time with an offset or Z (VALIDATION_FAILED names it)' })
  listOwnRequests(@CurrentJournalReader() reader: JournalCaller, @Query() query: JournalQueryDto): Promise<JournalPageDto> {
    return this.journal.page(query, reader);
  }

  @Get(':request_id')
  @ApiOperation({ summary: 'One of your journal entries', description: 'The newest of your entries with this request id; another caller\'s is 404.' })
  @ApiParam(REQUEST_ID_PARAM)
  @ApiOkResponse({ type: JournalEntryDto })
  @ApiProblems(400, { status: 404, description: 'None of your entries has this request id' })
  getOwnRequest(@CurrentJournalReader() reader: JournalCaller, @Param('request_id') requestId: string): Promise<JournalEntryDto> {
    return this.journal.entry(requestId, reader);
  }
}
