import { formatStockholmOffset } from '../values/stockholm-time';

/**
 * The rule hints of contract §14: findings about a request that help the client builder, each
 * raised by the code that owns its rule (the eid engine, the token service, the signing rules) and
 * never by re-reading requests. One list: the OpenAPI description and the README are written from
 * it. A flow that follows the documents gets none.
 */
export interface Hint {
  code: HintCode;
  message: string;
  /** The bank's document (`bank §…`) or the sandbox contract (`contract §…`). */
  section: string;
}

interface HintDefinition<P> {
  section: string;
  /** When it is raised (for the OpenAPI description and the README). */
  when: string;
  message: (params: P) => string;
}

const define = <P = Record<string, never>>(definition: HintDefinition<P>) => definition;

export const HINT_CATALOGUE = {
  POLLED_TOO_FAST: define<{ elapsedMs: number }>({
    section: 'bank §4.1',
    when: 'QR_CODE status polled less than 1 s (real time) after the previous poll',
    message: ({ elapsedMs }) => `You polled this QR_CODE status ${elapsedMs} ms after the previous poll; poll at most once a second (bank §4.1 rule 2).`,
  }),
  POLLED_AFTER_FINAL: define<{ state: string; secondsAgo: number }>({
    section: 'bank §3.1',
    when: 'status or collect 10 s or more (sandbox clock) after the first answer that reported the order COMPLETE or FAILED',
    message: ({ state, secondsAgo }) => `This order was reported ${state} ${secondsAgo} s ago; status and collect are used only while PENDING (bank §3.1).`,
  }),
  EXCHANGE_BEFORE_COMPLETE: define<{ state: 'PENDING' | 'COMPLETE' | 'FAILED' }>({
    section: 'bank §3.1',
    when: 'token exchange of a pending code whose status was never read as COMPLETE',
    message: ({ state }) =>
      state === 'FAILED'
        ? 'You exchanged this pending code without its status ever answering COMPLETE: the authentication FAILED and never will complete; start a new one (bank §3.1).'
        : state === 'PENDING'
          ? 'You exchanged this pending code while the authentication is still PENDING; poll the status until it answers COMPLETE, then exchange (bank §3.1).'
          : 'You exchanged this pending code before its status was read as COMPLETE; the documented flow polls the status until COMPLETE, then exchanges (bank §3.1).',
  }),
  TOKEN_EXPIRED: define<{ expiredAt: string; secondsAgo: number; lifetimeSeconds: number; renewal: string }>({
    section: 'bank §5.5',
    when: 'an access token used after its lifetime',
    message: ({ expiredAt, secondsAgo, lifetimeSeconds, renewal }) =>
      `This access token expired ${secondsAgo} s ago (at ${expiredAt}); it lived ${lifetimeSeconds} s. ${renewal} (bank §5.5).`,
  }),
  REFRESH_LAST_USE_TODAY: define({
    section: 'bank §5.5',
    when: 'the 4th refresh use of a Stockholm day',
    message: () => 'This was the 4th use of the refresh token today; the next one fails until midnight in Stockholm (bank §5.5).',
  }),
  REFRESH_LIMIT_REACHED: define<{ retryAt: string }>({
    section: 'bank §7.1',
    when: 'a refresh refused for being the 5th use today',
    message: ({ retryAt }) => `Refused: a refresh token serves 4 uses a day; it works again at ${retryAt} (midnight in Stockholm, bank §7.1 case 5).`,
  }),
  SIGNING_RETRY_WITHOUT_CANCEL: define({
    section: 'bank §7.2',
    when: 'a start refused with 409 after a start from the same IP',
    message: () => 'Refused because a signing from this IP is in progress; the next start succeeds without cancel (bank §7.2).',
  }),
  SIGNING_BLOCKED: define<{ until: string }>({
    section: 'bank §7.2',
    when: 'a start or cancel refused during a block',
    message: ({ until }) => `Refused during a block that ends at ${until} (bank §7.2, contract §11).`,
  }),
  START_AFTER_COLLECT_ERROR: define({
    section: 'bank §3.2',
    when: 'collect called again after COLLECT_ERROR',
    message: () => 'This signing ended with COLLECT_ERROR; start a new signing instead of collecting again (bank §3.2).',
  }),
  KYC_REQUIRED: define<{ personalNumber: string; name: string; sandboxPrefix: string }>({
    section: 'bank §4.2',
    when: 'a grant refused because the user has not answered KYC',
    message: ({ personalNumber, name, sandboxPrefix }) =>
      `Refused: user ${personalNumber} has not answered KYC (bank §4.2 rule 1). In the sandbox, with its admin key: ` +
      `PUT ${sandboxPrefix}/admin/users/${personalNumber} with {"name": ${JSON.stringify(name)}, "kyc_completed": true}.`,
  }),
  DEPRECATED_PATH: define<{ successor: string; end: string | null }>({
    section: 'contract §12',
    when: 'a retired path used before its end',
    message: ({ successor, end }) => `This path is retired${end ? ` and ends at ${end}` : ''}; use ${successor} (contract §12).`,
  }),
  SCOPE_NARROWER_THAN_CERTIFICATE: define<{ asked: string; roles: string }>({
    section: 'bank §1',
    when: 'informational: scopes asked are fewer than the certificate\'s roles',
    message: ({ asked, roles }) => `For your information: you asked for ${asked} while your certificate allows ${roles}; that is allowed (bank §1).`,
  }),
  MISSING_PSU_IP: define({
    section: 'bank §4',
    when: 'a call that needs PSU-IP-Address refused for lacking it',
    message: () => 'Refused for lacking the PSU-IP-Address header, which this call needs (bank §4, §4.2, §5.9).',
  }),
} as const;

export type HintCode = keyof typeof HINT_CATALOGUE;
export type HintParams<C extends HintCode> = Parameters<(typeof HINT_CATALOGUE)[C]['message']>[0];

export const HINT_CODES = Object.keys(HINT_CATALOGUE) as HintCode[];

/** The hint `code` with its message filled in. */
export function hintOf<C extends HintCode>(code: C, ...params: HintParams<C> extends Record<string, never> ? [] : [HintParams<C>]): Hint {
  const definition = HINT_CATALOGUE[code] as HintDefinition<unknown>;
  return { code, message: definition.message(params[0] ?? {}), section: definition.section };
}

/**
 * TOKEN_EXPIRED's parameters (bank §5.5), the same for every kind of access token (PSD2, enterprise):
 * when it expired, how long ago on the sandbox clock, how long it lived, and how the holder gets a
 * new one (only an authorize flow with AIS has a refresh token).
 */
export function tokenExpiredParams(token: { issuedAt: Date; expiresAt: Date }, now: Date, renewal: string): HintParams<'TOKEN_EXPIRED'> {
  return {
    renewal,
    expiredAt: formatStockholmOffset(token.expiresAt),
    secondsAgo: Math.floor((now.getTime() - token.expiresAt.getTime()) / 1000),
    lifetimeSeconds: Math.round((token.expiresAt.getTime() - token.issuedAt.getTime()) / 1000),
  };
}
