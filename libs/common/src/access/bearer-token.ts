import type { Request } from 'express';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { BearerRequestInvalid, Unauthorized, ValidationFailed } from '../errors/domain-error';
import { CONTROL_CHARACTER_RULE, hasControlCharacter } from '../values/text-input';

/**
 * The request as passport-http-bearer reads it. RFC 6750 §2.1 allows one or more spaces between the
 * scheme and the token (`credentials = "Bearer" 1*SP b64token`); the library splits the header on a
 * single space, so the view's header has that run as one space. All else is the request's own (its
 * prototype), and the request itself is what `verify` gets back (`viewedRequest`).
 */
function bearerView(request: Request): Request {
  const authorization = request.headers.authorization?.replace(/^(\S+) +/, '$1 ');
  return Object.create(request, { headers: { value: { ...request.headers, authorization } } }) as Request;
}

const viewedRequest = (view: Request): Request => Object.getPrototypeOf(view) as Request;

/** The request's `access_token` parameter in the query or in an object body (JSON or form); undefined when absent. */
function accessTokenParameter(source: unknown): unknown {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return undefined;
  const value: unknown = (source as Record<string, unknown>).access_token;
  // In a body `null` for an optional field means absent (contract §2).
  return value === null ? undefined : value;
}

/**
 * RFC 6750 §2 (and contract §2): a request carries its bearer in one place, once, as one string. A
 * repeated `access_token` (an array), one that is no string (a JSON number, boolean, object or
 * array), or a header together with a parameter is 400 naming `access_token` with
 * error="invalid_request" (§3.1), before passport-http-bearer, which would take an array for a token.
 */
function refuseAmbiguousBearer(request: Request): void {
  const inQuery = accessTokenParameter(request.query);
  const inBody = accessTokenParameter(request.body);
  for (const [where, value] of [['query', inQuery], ['body', inBody]] as const) {
    if (value !== undefined && typeof value !== 'string') {
      const given = Array.isArray(value) ? 'repeated (or an array)' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
      throw new BearerRequestInvalid(`access_token must be given once, as one string (RFC 6750 §2); in the ${where} it is ${given}.`);
    }
  }
  const places = [request.headers.authorization !== undefined && 'the Authorization header', inBody !== undefined && 'access_token in the body', inQuery !== undefined && 'access_token in the query'].filter(Boolean);
  if (places.length > 1) {
    throw new BearerRequestInvalid(`access_token: give the bearer credential in one place only (RFC 6750 §2), not in ${places.join(' and ')}.`);
  }
}

/**
 * Reads `Authorization: Bearer <value>` with passport-http-bearer (RFC 6750: header, also the
 * `access_token` body or query parameter) and resolves it with `verify`: the one place every bearer
 * route (PSD2 tokens, partner keys and enterprise tokens, admin keys) parses Authorization. The
 * strategy is run on its own instance, as passport itself runs strategies, rather than through
 * passport's process-wide registry: each app instance (tests run several in one process) keeps its
 * own services.
 */
export class BearerAuthenticator<T> {
  private readonly strategy: BearerStrategy<(request: Request, value: string, done: (error: unknown, user?: T | false) => void) => void>;
  /** Requests whose bearer value reached `verify`: a refusal of those is error="invalid_token". */
  private readonly presented = new WeakSet<Request>();

  constructor(
    /** Resolves a bearer value (the request: for what the caller's strategy notes about a refusal). */
    verify: (value: string, request: Request) => Promise<T | null>,
    private readonly missing: string,
  ) {
    this.strategy = new BearerStrategy({ passReqToCallback: true }, (view: Request, value: string, done: (error: unknown, user?: T | false) => void) => {
      // Contract §2: a header we read refuses control characters, before the value reaches a lookup.
      if (hasControlCharacter(value)) return done(new ValidationFailed(`Authorization (the bearer value) ${CONTROL_CHARACTER_RULE}`));
      const request = viewedRequest(view);
      this.presented.add(request);
      verify(value, request).then((user) => done(null, user ?? false), (error: unknown) => done(error));
    });
  }

  /**
   * The principal the bearer value stands for; 401 with `missing` when absent or unknown; 400 when
   * given more than once or not as one string.
   */
  authenticate(request: Request): Promise<T> {
    return new Promise((resolve, reject) => {
      refuseAmbiguousBearer(request);
      const attempt = Object.create(this.strategy) as typeof this.strategy & {
        success(user: T): void;
        fail(): void;
        error(error: unknown): void;
        pass(): void;
        redirect(): void;
      };
      const refuse = () => reject(new Unauthorized(this.missing, { bearerRefused: this.presented.has(request) }));
      attempt.success = (user: T) => resolve(user);
      attempt.fail = refuse;
      attempt.pass = refuse;
      attempt.redirect = refuse;
      attempt.error = (error: unknown) => reject(error);
      attempt.authenticate(bearerView(request), {});
    });
  }
}
