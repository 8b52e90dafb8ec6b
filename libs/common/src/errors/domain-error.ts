/**
 * The one catalogue of problem codes (contract §2). Each code has a meaning (`kind`); only the
 * problem-details filter turns kinds into HTTP statuses. Add codes here, never inline.
 */
export type DomainErrorKind =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_state'
  | 'gone'
  | 'payload_too_large'
  | 'unprocessable'
  | 'too_many_requests'
  | 'internal'
  | 'not_implemented'
  | 'unavailable';

export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: 'invalid_input',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'forbidden',
  ROLE_NOT_IN_CERTIFICATE: 'forbidden',
  SCOPE_NOT_GRANTED: 'forbidden',
  TOKEN_KIND_NOT_ALLOWED: 'forbidden',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  INVALID_STATE: 'invalid_state',
  /** SANDBOX_MAX sandboxes exist (contract §13). */
  SANDBOX_LIMIT_REACHED: 'conflict',
  RFA4_SIGNING_IN_PROGRESS: 'conflict',
  POLLING_TOO_FAST: 'too_many_requests',
  /** Self-service creations over SANDBOX_CREATE_PER_HOUR from one caller IP (contract §13). */
  RATE_LIMITED: 'too_many_requests',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  PLANNED_DOWNTIME: 'unavailable',
  DATABASE_UNAVAILABLE: 'unavailable',
  /** A row kept changing under concurrent requests, so this one's change was not saved: retry. */
  CONCURRENT_CHANGES: 'unavailable',
  /** The sandbox was reset while the request ran, so it could not finish: send it again (contract §13). */
  SANDBOX_RESET: 'unavailable',
  VERSION_WITHDRAWN: 'gone',
  NOT_SIMULATED: 'not_implemented',
  /** An Idempotency-Key sent again with another method, path, body or X-Sandbox-User (contract §15). */
  IDEMPOTENCY_KEY_REUSED: 'unprocessable',
  /** An Idempotency-Key sent again while its first request still runs (contract §15). */
  IDEMPOTENCY_KEY_IN_USE: 'conflict',
  /** Strict mode (contract §16): the client certificate is not the sandbox CA's, not yet valid, expired or revoked. */
  CERTIFICATE_INVALID: 'unauthorized',
  /** Strict mode (contract §16): a route that needs a client certificate, called over TLS without one. */
  CERTIFICATE_REQUIRED: 'unauthorized',
  INTERNAL_ERROR: 'internal',
} as const satisfies Record<string, DomainErrorKind>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * A failure a client can act on. Thrown by services and entities; rendered once, by
 * ProblemDetailsFilter. `message` becomes `reason.message` and is shown to the client, so it must
 * never carry a secret.
 */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Response headers that belong to this failure (e.g. Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.kind = ERROR_CATALOGUE[code];
  }
}

/** Bad input: 400 VALIDATION_FAILED whose message names the field, header or path segment. */
export class ValidationFailed extends DomainError {
  constructor(message: string, headers: Readonly<Record<string, string>> = {}) {
    super('VALIDATION_FAILED', message, headers);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

/** The challenge of every 401 (RFC 6750 §3, contract §2). */
export const BEARER_CHALLENGE = 'Bearer realm="sandbox"';

/**
 * Missing or invalid credentials: 401 with `WWW-Authenticate: Bearer realm="sandbox"`, plus
 * `error="invalid_token"` when a bearer value was sent and refused (unknown, expired, another TPP's,
 * the wrong kind) (RFC 6750 §3, contract §2).
 */
export class Unauthorized extends DomainError {
  constructor(message = 'Missing or invalid credentials.', options: { bearerRefused?: boolean } = {}) {
    super('UNAUTHORIZED', message, {
      'WWW-Authenticate': options.bearerRefused ? `${BEARER_CHALLENGE}, error="invalid_token"` : BEARER_CHALLENGE,
    });
  }
}

/**
 * A bearer credential given more than once, or not as one string: 400 VALIDATION_FAILED naming
 * `access_token`, with the challenge's `error="invalid_request"` (RFC 6750 §3.1, contract §2).
 */
export class BearerRequestInvalid extends ValidationFailed {
  constructor(message: string) {
    super(message, { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_request"` });
  }
}

/**
 * Strict mode's 401s (contract §16): the TLS client certificate is missing or not valid. Like every
 * 401 they carry the challenge (contract §2); the PSD2 token endpoint drops it, as for its other
 * invalid_client answers.
 */
export class CertificateRefused extends DomainError {
  constructor(code: 'CERTIFICATE_INVALID' | 'CERTIFICATE_REQUIRED', message: string) {
    super(code, message, { 'WWW-Authenticate': BEARER_CHALLENGE });
  }
}

/** Wrong state for this request: 409 INVALID_STATE (contract §2). Each lib's state errors extend it. */
export class InvalidState extends DomainError {
  constructor(message: string) {
    super('INVALID_STATE', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string) {
    super('FORBIDDEN', message);
  }
}
