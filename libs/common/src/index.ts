export { CommonModule } from './common.module';
export { SandboxConfigModule } from './config/sandbox-config.module';
export { SandboxConfig, SandboxEnvironment, InvalidConfiguration, validateEnvironment } from './config/sandbox-config';
export type { LogLevel } from './config/sandbox-config';
export { DatabaseModule } from './database/database.module';
export type { DatabaseModuleOptions } from './database/database.module';
export { DataDirLocked } from './database/data-dir-lock';
export { LoggingModule } from './logging/logging.module';
export { logRedactionFailed, queryName } from './logging/log-redaction';
export { REDACTED, redactUrl } from './redaction/redaction';
export { configureHttp, BODY_LIMIT_BYTES } from './http/configure-http';
export { answerClientErrors } from './http/client-errors';
export { RequestGates } from './http/request-gates';
export { CallerIp, callerIpOf } from './http/caller-ip.decorator';
export { NoStore } from './http/no-store.decorator';
export { tokenEndpointOf } from './http/token-endpoints';
export { html, trusted, escapeHtml, prefersHtml, asksForHtml, SafeHtml } from './http/html';
export { basePageStyle } from './http/page-style';
export type { TokenEndpoint } from './http/token-endpoints';
export type { RequestGate } from './http/request-gates';
export { Clock, TestClock } from './clock/clock';
export { SandboxClock } from './clock/sandbox-clock';
export { SANDBOX_CLOCK_RANGE } from './clock/clock-range';
export { SandboxContext, DEFAULT_SANDBOX_ID, NoSandboxContext } from './sandbox/sandbox-context';
export type { SandboxScope } from './sandbox/sandbox-context';
export { SandboxDb, UnscopedStatement, isSandboxScoped } from './sandbox/sandbox-db';
export { SandboxIdColumn, SANDBOX_ID_COLUMN } from './sandbox/sandbox-column';
export { SandboxCache } from './sandbox/sandbox-cache';
export type { SandboxGenerations } from './sandbox/sandbox-cache';
export { resolveRequestSandbox, parseSandboxId, sandboxPrefixOf } from './sandbox/request-sandbox';
export { SandboxRegistry, UnknownSandbox } from './sandbox/sandbox-registry';
export { EmbeddedPostgres, type MemoryTemplateStore } from './database/embedded-postgres';
export { SandboxChanges } from './sandbox/sandbox-changes';
export { SandboxCreationLog } from './sandbox/sandbox-creation-log';
export type { SandboxRow, SandboxSettings, NewSandbox } from './sandbox/sandbox-registry';
export type { RequestWithSandbox } from './sandbox/request-sandbox';
export { returnedRows } from './database/returned-rows';
export { EntityRows, entityRows } from './database/entity-rows';
export { DomainError, ValidationFailed, NotFound, Unauthorized, Forbidden, InvalidState, CertificateRefused, ERROR_CATALOGUE, BEARER_CHALLENGE } from './errors/domain-error';
export { defineLifecycle } from './lifecycle/lifecycle';
export type { Lifecycle } from './lifecycle/lifecycle';
export { OAuthError } from './errors/oauth-error';
export type { OAuthErrorCode } from './errors/oauth-error';
export type { ErrorCode, DomainErrorKind } from './errors/domain-error';
export { toProblem, problemBody, requestPath, STATUS_OF_KIND } from './errors/problem-details.filter';
export { StrictValidationPipe } from './errors/validation.pipe';
export type { ProblemBody } from './errors/problem-details.filter';
export { Access, Public, AdminOnly, AdminOrSelfService, ACCESS_POLICY } from './access/access.decorators';
export { SelfServiceCaller } from './access/admin-key.strategy';
export type { AccessPolicy } from './access/access.decorators';
export { principalOf } from './access/access-strategy';
export type { AccessStrategy, Principal, PrincipalKind, PrincipalOf, Principals, RequestWithPrincipal } from './access/access-strategy';
export { AccessStrategyRegistry } from './access/access-strategy.registry';
export { CertificateBinding, certificateBindingOf, certificateBindingRefusal, isMutualTls, peerCertificateDer } from './access/mutual-tls';
export type { ClientCertificateGate } from './access/mutual-tls';
export { BearerAuthenticator } from './access/bearer-token';
export type { DueWork, SandboxJob, ServiceJob } from './jobs/sandbox-job';
export { JobRegistry } from './jobs/job.registry';
export { JobRunner } from './jobs/job-runner';
export { ADMIN_PROBLEMS, ApiProblems, ProblemDto } from './openapi/api-problems.decorator';
export type { ProblemExample } from './openapi/api-problems.decorator';
export { API_TAG, API_TAGS } from './openapi/api-tags';
export type { ApiTagName } from './openapi/api-tags';
export { ApiInterface } from './openapi/api-interface.decorator';
export {
  PERSONAL_NUMBER,
  PERSONAL_NUMBER_INPUT,
  IP_ADDRESS,
  CALENDAR_DATE,
  INSTANT,
  UUID,
  ACCOUNT_NUMBER,
  CURRENCY,
  MONEY,
  WHOLE_SEK,
} from './openapi/api-formats';
export { buildOpenApiDocument, OpenApiDocument, type OpenApiTransform, OPENAPI_JSON_PATH, DOCS_PATH, sandboxServers } from './openapi/openapi';
export { addResponseHeaders, HTTP_METHODS, jsonCopy, operationsOf, RESPONSE_HEADERS, type ResponseHeaderName, TOKEN_ENDPOINT_PATHS } from './openapi/openapi-finish';
export { parsePersonalNumber, PERSONAL_NUMBER_RULE } from './values/personal-number';
export type { PersonalNumber } from './values/personal-number';
export { PersonalNumberPipe, PersonalNumberReader } from './values/personal-number.pipe';
export { UuidPipe, isUuid } from './values/uuid.pipe';
export { isIpAddress } from './values/ip-address';
export { toMinorUnits, minorUnitsToDecimal, decimalToJsonNumber, MAX_AMOUNT } from './values/money';
export { IsInstant, parseInstant, instantOf, isWithin, outsideRangeMessage } from './values/instant';
export type { InstantRange } from './values/instant';
export { IsDecimalNumber, isDecimalNumber, decimalPlaces, parseQueryNumber, QueryNumber } from './values/decimal-number';
export { NestedObject, NestedObjectArray } from './values/nested-object-array';
export { hasControlCharacter, findTextInputProblem, withoutNullFields, CONTROL_CHARACTER_RULE, PROTOTYPE_KEYS } from './values/text-input';
export { TEXT_HEADERS } from './http/header-input.guard';
export { hashSecret, hashUuidSecret, secretMatchesHash, newSecret } from './values/secrets';
export {
  stockholmCalendarDate,
  stockholmToday,
  stockholmInstant,
  stockholmOffsetMinutes,
  parseCalendarDate,
  formatCalendarDate,
  addDays,
  formatStockholmOffset,
  formatUtcSeconds,
  STOCKHOLM,
} from './values/stockholm-time';
export type { CalendarDate } from './values/stockholm-time';
export { HINT_CATALOGUE, HINT_CODES, hintOf, tokenExpiredParams } from './journal/hint-catalogue';
export type { Hint, HintCode, HintParams } from './journal/hint-catalogue';
export { RequestHints } from './journal/request-hints';
export { RequestCaller } from './journal/request-caller';
export { CALLER_KINDS, JOURNAL_ROW_COLUMNS } from './journal/journal-entry';
export type { CallerKind, JournalCaller } from './journal/journal-entry';
export type { JournalBatch } from './journal/journal-batch';
export { JournalStore } from './journal/journal-store';
export { JournalCertificates } from './journal/journal-certificates';
export type { CertificateDescriber, CertificateSummary } from './redaction/redaction';
export { JournalWriter } from './journal/journal-writer';
export type { JournalHealth } from './journal/journal-writer';
export { JournalRepository } from './journal/journal.repository';
export type { JournalEntry, JournalFilter, JournalPage } from './journal/journal.repository';
export { decodeJournalCursor } from './journal/journal-cursor';
export { SANDBOX_HINTS_HEADER } from './journal/journal-recorder';
export { Idempotent } from './idempotency/idempotent.decorator';
export type { IdempotentOptions } from './idempotency/idempotency.interceptor';
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency/idempotency-key';
export { IdempotencyExpiryJob } from './idempotency/idempotency-expiry.job';
