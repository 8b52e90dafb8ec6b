import { Injectable } from '@nestjs/common';
import { decodeJournalCursor, type JournalCaller, type JournalEntry, JournalRepository, instantOf, NotFound, ValidationFailed } from '@app/common';
import { JOURNAL_CURSOR_MESSAGE, JOURNAL_PAGE_DEFAULT, type JournalEntryDto, type JournalPageDto, type JournalQueryDto } from './journal.dto';

/** The form of an X-Request-Id (contract §14). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Reading the request journal (contract §14): the sandbox admin sees every entry, a TPP or partner
 * (`own`) only its own; another caller's entry is as absent as one that never was.
 */
@Injectable()
export class JournalService {
  constructor(private readonly journal: JournalRepository) {}

  async page(query: JournalQueryDto, own?: JournalCaller): Promise<JournalPageDto> {
    const page = await this.journal.page(
      {
        callerKind: query.caller_kind,
        callerId: query.caller_id,
        status: query.status,
        pathPrefix: query.path_prefix,
        hint: query.hint,
        since: query.since === undefined ? undefined : instantOf(query.since),
        until: query.until === undefined ? undefined : instantOf(query.until),
        limit: query.limit ?? JOURNAL_PAGE_DEFAULT,
        after: query.after === undefined ? undefined : positionOf(query.after),
      },
      own,
    );
    // Contract §2: the last page has no next_after, rather than a null.
    return { entries: page.entries.map(toEntryDto), ...(page.nextAfter === undefined ? {} : { next_after: page.nextAfter }) };
  }

  async entry(requestId: string, own?: JournalCaller): Promise<JournalEntryDto> {
    if (!REQUEST_ID.test(requestId)) throw new ValidationFailed('request_id must be 1 to 128 of A-Z a-z 0-9 . _ : - (an X-Request-Id)');
    const entry = await this.journal.byRequestId(requestId, own);
    if (!entry) throw new NotFound(`No journal entry with request id ${requestId}.`);
    return toEntryDto(entry);
  }
}

/** The place an `after` names; 400 naming after for anything the service could not have given. */
function positionOf(after: string) {
  const position = decodeJournalCursor(after);
  if (!position) throw new ValidationFailed(JOURNAL_CURSOR_MESSAGE);
  return position;
}

function toEntryDto(entry: JournalEntry): JournalEntryDto {
  return {
    request_id: entry.requestId,
    at: entry.at.toISOString(),
    arrived_at: entry.arrivedAt.toISOString(),
    method: entry.method,
    path: entry.path,
    query: entry.query,
    status: entry.status,
    duration_ms: entry.durationMs,
    caller: entry.caller,
    ...(entry.reasonCode === null ? {} : { reason_code: entry.reasonCode }),
    request: entry.request as unknown as JournalEntryDto['request'],
    response: entry.response,
    hints: entry.hints,
    ...(entry.replayed ? { replayed: true as const } : {}),
  };
}
