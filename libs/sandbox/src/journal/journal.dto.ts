import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CALLER_KINDS, type CallerKind, HINT_CODES, type HintCode, INSTANT, IsInstant, QueryNumber } from '@app/common';

/** Entries per page at most (contract §14), and when `limit` is absent. */
export const JOURNAL_PAGE_MAX = 500;
export const JOURNAL_PAGE_DEFAULT = 100;

/** A page's cursor (contract §14): opaque, 22 characters of base64url. */
const JOURNAL_CURSOR_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const JOURNAL_CURSOR_EXAMPLE = 'AAZhAsYCKkARIhD0femBFQ';
export const JOURNAL_CURSOR_MESSAGE = 'after must be the next_after of a previous page, as it was given';

/** In a query a + must be sent as %2B, else it arrives as a space. */
const INSTANT_QUERY_FORM = 'ISO 8601 date-time (RFC 3339) with a time-zone offset or Z, e.g. 2026-11-24T09:00:00Z or 2026-11-24T10:00:00%2B01:00';

/** The filters of GET /admin/requests and GET /sandbox/requests (contract §14). */
export class JournalQueryDto {
  @ApiPropertyOptional({ enum: CALLER_KINDS, description: 'Only entries of this kind of caller' })
  @IsOptional()
  @IsIn(CALLER_KINDS, { message: `caller_kind must be one of ${CALLER_KINDS.join(', ')}` })
  caller_kind?: CallerKind;

  @ApiPropertyOptional({ maxLength: 256, example: 'PSDSE-FINA-44059', description: 'Only entries of this caller: organization id, partner_id or personal number' })
  @IsOptional()
  @IsString({ message: 'caller_id must be a single value' })
  @Matches(/^.{1,256}$/s, { message: 'caller_id must be 1 to 256 characters' })
  caller_id?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 100, maximum: 599, example: 401, description: 'Only answers with this HTTP status' })
  @IsOptional()
  @QueryNumber()
  @IsInt({ message: 'status must be an HTTP status code from 100 to 599' })
  @Min(100, { message: 'status must be an HTTP status code from 100 to 599' })
  @Max(599, { message: 'status must be an HTTP status code from 100 to 599' })
  status?: number;

  @ApiPropertyOptional({ maxLength: 512, example: '/psd2/', description: 'Only paths that start with this (inside the sandbox, without /sandboxes/{id})' })
  @IsOptional()
  @IsString({ message: 'path_prefix must be a single value' })
  @Matches(/^\//, { message: 'path_prefix must start with /' })
  @MaxLength(512, { message: 'path_prefix must be at most 512 characters' })
  path_prefix?: string;

  @ApiPropertyOptional({ enum: HINT_CODES, description: 'Only entries with this hint' })
  @IsOptional()
  @IsIn(HINT_CODES, { message: `hint must be one of ${HINT_CODES.join(', ')}` })
  hint?: HintCode;

  @ApiPropertyOptional({ ...INSTANT, description: `Only entries that arrived at or after this real time (not the sandbox clock); ${INSTANT_QUERY_FORM}` })
  @IsOptional()
  @IsInstant()
  since?: string;

  @ApiPropertyOptional({ ...INSTANT, description: `Only entries that arrived before this real time (not the sandbox clock); ${INSTANT_QUERY_FORM}` })
  @IsOptional()
  @IsInstant()
  until?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: JOURNAL_PAGE_MAX, example: 50, description: `Entries per page; ${JOURNAL_PAGE_DEFAULT} when absent` })
  @IsOptional()
  @QueryNumber()
  @IsInt({ message: `limit must be an integer from 1 to ${JOURNAL_PAGE_MAX}` })
  @Min(1, { message: `limit must be an integer from 1 to ${JOURNAL_PAGE_MAX}` })
  @Max(JOURNAL_PAGE_MAX, { message: `limit must be an integer from 1 to ${JOURNAL_PAGE_MAX}` })
  limit?: number;

  @ApiPropertyOptional({ example: JOURNAL_CURSOR_EXAMPLE, pattern: JOURNAL_CURSOR_PATTERN.source, description: 'The next_after of the previous page, as it was given' })
  @IsOptional()
  @IsString({ message: 'after must be a single value' })
  @Matches(JOURNAL_CURSOR_PATTERN, { message: JOURNAL_CURSOR_MESSAGE })
  after?: string;
}

/** Any JSON value: what a client sent or was answered, redacted. */
const ANY_JSON: Pick<ApiPropertyOptions, 'oneOf'> = {
  oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: {} }, { type: 'string' }, { type: 'number' }, { type: 'boolean' }],
};

export class JournalHintDto {
  @ApiProperty({ enum: HINT_CODES, example: 'POLLED_TOO_FAST' })
  code: HintCode;

  @ApiProperty({ example: 'You polled this QR_CODE status 412 ms after the previous poll; poll at most once a second (bank §4.1 rule 2).' })
  message: string;

  @ApiProperty({ example: 'bank §4.1', description: 'The bank\'s document (bank §…) or the sandbox contract (contract §…)' })
  section: string;
}

export class JournalCallerDto {
  @ApiProperty({ enum: CALLER_KINDS, example: 'tpp' })
  kind: CallerKind;

  @ApiPropertyOptional({ example: 'PSDSE-FINA-44059', description: 'Organization id (a TPP), partner_id (a partner) or personal number (an end user)' })
  id?: string;
}

export class JournalRequestDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Header names lower-cased; the value of every header whose name holds token, secret, key, auth, password, cookie, session or signature "[redacted]" (a scheme word such as Bearer kept); Idempotency-Key as "[redacted sha256:<first 12 hex digits of its SHA-256>]"; secret parameters inside any value (autostarttoken=, access_token=, …) "[redacted]"; a certificate (here, in the query or in a body) as { organization_id (absent when it names none), sha256 (of its DER) }',
  })
  headers: Record<string, unknown>;

  @ApiPropertyOptional({ ...ANY_JSON, description: 'The parsed body, secrets "[redacted]"; over 4 KB as sent, or nested deeper than 32 levels, the first 4 KB of its redacted JSON as a string' })
  body?: unknown;

  @ApiPropertyOptional({ enum: [true] })
  body_truncated?: true;
}

export class JournalResponseDto {
  @ApiPropertyOptional({ ...ANY_JSON, description: 'The answer\'s body, secrets "[redacted]"; over 4 KB as sent, the first 4 KB of its redacted JSON as a string' })
  body?: unknown;

  @ApiPropertyOptional({ enum: [true] })
  body_truncated?: true;
}

/** One journal entry (contract §14). */
export class JournalEntryDto {
  @ApiProperty({ example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13', description: 'The X-Request-Id of the request' })
  request_id: string;

  @ApiProperty({ ...INSTANT, description: 'The sandbox clock at arrival' })
  at: string;

  @ApiProperty({ ...INSTANT, description: 'The real time of arrival, which is the order of the list (what since and until compare; `at` is the sandbox clock, which may have been moved)' })
  arrived_at: string;

  @ApiProperty({ example: 'POST' })
  method: string;

  @ApiProperty({ example: '/psd2/auth/3.0/status', description: 'Inside the sandbox, without /sandboxes/{id}' })
  path: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Query parameters, secret ones "[redacted]"' })
  query: Record<string, unknown>;

  @ApiProperty({ type: 'integer', example: 200 })
  status: number;

  @ApiProperty({ type: 'integer', example: 12, description: 'Whole milliseconds' })
  duration_ms: number;

  @ApiProperty({ type: JournalCallerDto, description: 'What the request identified, even when it was then refused' })
  caller: JournalCallerDto;

  @ApiPropertyOptional({ example: 'UNAUTHORIZED', description: 'The reason.code of a problem answer (the error of an RFC 6749 one)' })
  reason_code?: string;

  @ApiProperty({ type: JournalRequestDto })
  request: JournalRequestDto;

  @ApiProperty({ type: JournalResponseDto })
  response: JournalResponseDto;

  @ApiProperty({ type: JournalHintDto, isArray: true })
  hints: JournalHintDto[];

  @ApiPropertyOptional({ enum: [true], description: 'An Idempotency-Key replay of an earlier answer' })
  replayed?: true;
}

export class JournalPageDto {
  @ApiProperty({ type: JournalEntryDto, isArray: true, description: 'Newest first, in arrival order' })
  entries: JournalEntryDto[];

  @ApiPropertyOptional({
    example: JOURNAL_CURSOR_EXAMPLE,
    pattern: JOURNAL_CURSOR_PATTERN.source,
    description: 'Pass as after for the next page; absent on the last page. Opaque: it names the last entry\'s own place in this journal and tells nothing about other sandboxes or callers',
  })
  next_after?: string;
}
