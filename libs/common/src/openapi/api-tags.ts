/**
 * The interfaces of the OpenAPI document: every operation carries exactly one of these tags, and
 * /docs groups by them in this order (issue 9, contract §1). Controllers use `@ApiTags(API_TAG.ais)`.
 */
export const API_TAG = {
  psd2Auth: 'PSD2 auth',
  ais: 'AIS',
  pis: 'PIS',
  signing: 'signing',
  mortgage: 'mortgage',
  enterprise: 'enterprise',
  sandbox: 'sandbox',
  admin: 'admin',
} as const;

export type ApiTagName = (typeof API_TAG)[keyof typeof API_TAG];

/** The tags with their one-line descriptions, in the order /docs shows them. */
export const API_TAGS: ReadonlyArray<{ readonly name: ApiTagName; readonly description: string }> = [
  {
    name: API_TAG.psd2Auth,
    description:
      'PSD2 authentication: authenticate, authorize, status and cancel, and the token endpoint with RFC 6749 errors ' +
      '(bank §2.1–2.4, §3.1, §4.1, §5, §7.1; contract §2, §3, §5). Needs X-PSD2-CLIENT-TEST-CERT and PSU-IP-Address. ' +
      'The retired redirect flows GET /psd2/auth/1.0/authenticate and GET /psd2/auth/2.0/authorize are not operations here, as they never ' +
      'succeed: 501 NOT_SIMULATED until 2024-04-30 end of day, then 410 VERSION_WITHDRAWN, each naming its successor POST /psd2/auth/3.0/authenticate or /authorize (contract §12).',
  },
  {
    name: API_TAG.ais,
    description: 'Account information v2: account numbers, accounts, transactions, transfers, funds check (bank §4.2; contract §10). PSD2 token with AIS.',
  },
  {
    name: API_TAG.pis,
    description:
      'Payment initiation 3.0 and the v3 routes of the non-authenticated token: transfers, recurring transfers, eid signing ' +
      '(bank §2.7, §4.2, §4.3, §8; contract §10). PSD2 token with PIS.',
  },
  {
    name: API_TAG.signing,
    description: 'Partner signing of pre-approvals and loan applications: start, start/phone, collect, cancel (bank §2.5, §3.2, §4.4, §7.2; contract §11).',
  },
  {
    name: API_TAG.mortgage,
    description:
      'Mortgage pre-approval, loan applications 2.0 and the effective interest rate (bank §2.6, §3.3, §4.5, §9 rules 6–7; contract §9). Partner key.',
  },
  {
    name: API_TAG.enterprise,
    description: 'Enterprise authentication: client-credentials and end-user tokens, authorize (bank §2.4, §4.6; contract §2). Partner key.',
  },
  {
    name: API_TAG.sandbox,
    description:
      'Sandbox helpers without credentials: health, test certificates, planned downtime windows, the eid simulator (contract §1, §3, §4, §7).',
  },
  {
    name: API_TAG.admin,
    description: 'Sandbox administration with ADMIN_API_KEY: users and accounts, partners, TPPs, seeding, the clock, jobs (contract §3, §6, §8).',
  },
];
