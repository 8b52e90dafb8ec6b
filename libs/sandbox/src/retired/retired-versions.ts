import { stockholmInstant } from '@app/common';

/** What a retired path does before its end (contract §12). */
export type BeforeEnd = 'alias' | 'not_simulated';

export interface RetiredVersion {
  /** Matches the retired path (with or without the /partner prefix); group 1 is the prefix, group 2 the rest. */
  pattern: RegExp;
  /** Limits the row to these methods, when the bank named them. */
  methods?: readonly string[];
  /** The successor path for `rest` (what the alias serves), e.g. /psd2/savings/3.0/… */
  successor: (rest: string) => string;
  /** The successor as the bank names it, for messages and the Link header. */
  successorName: string;
  before: BeforeEnd;
  /** The instant it stops working; null for a path that remains usable for an undefined time. */
  end: Date | null;
  /** Deprecation: the end, or for a path that never ends, when its successor appeared. */
  deprecatedAt: Date;
  /**
   * For the OpenAPI document (issue 13): an alias row's retired and successor prefixes and the segment
   * it renames, so each successor operation is also described under its retired path.
   */
  documented?: { retired: string; successor: string; renamed?: { retired: string; successor: string } };
}

const endOfDay = (date: string) => stockholmInstant(date, 24);
const startOfDay = (date: string) => stockholmInstant(date);

/** The retirement table of contract §12 (bank §9), one row per retired set of paths. */
export const RETIRED_VERSIONS: readonly RetiredVersion[] = [
  // The redirect flows, each succeeded by the 3.0 call of the same flow (bank §9 rule 2).
  {
    pattern: /^()\/psd2\/auth\/1\.0\/authenticate\/?$/,
    methods: ['GET'],
    successor: () => '/psd2/auth/3.0/authenticate',
    successorName: 'POST /psd2/auth/3.0/authenticate',
    before: 'not_simulated',
    end: endOfDay('2024-04-30'),
    deprecatedAt: endOfDay('2024-04-30'),
  },
  {
    pattern: /^()\/psd2\/auth\/2\.0\/authorize\/?$/,
    methods: ['GET'],
    successor: () => '/psd2/auth/3.0/authorize',
    successorName: 'POST /psd2/auth/3.0/authorize',
    before: 'not_simulated',
    end: endOfDay('2024-04-30'),
    deprecatedAt: endOfDay('2024-04-30'),
  },
  {
    pattern: /^()\/psd2\/savings\/2\.0(\/.*)?$/,
    successor: (rest) => `/psd2/savings/3.0${rest}`,
    successorName: '/psd2/savings/3.0/…',
    documented: { retired: '/psd2/savings/2.0', successor: '/psd2/savings/3.0' },
    before: 'alias',
    end: endOfDay('2024-04-30'),
    deprecatedAt: endOfDay('2024-04-30'),
  },
  {
    // Pre-approval paths under it have their own row below.
    pattern: /^(\/partner)?\/api\/loan-application\/1\.0\/mortgages(?!\/preapproval)(\/.*)?$/,
    successor: (rest) => `/api/loan-application/2.0/mortgages${rest.replace(/\/applicant(?=\/|$)/g, '/participant')}`,
    successorName: '/api/loan-application/2.0/mortgages/… (applicant → participant)',
    documented: {
      retired: '/api/loan-application/1.0/mortgages',
      successor: '/api/loan-application/2.0/mortgages',
      renamed: { retired: '/applicant', successor: '/participant' },
    },
    before: 'alias',
    end: endOfDay('2024-04-30'),
    deprecatedAt: endOfDay('2024-04-30'),
  },
  {
    pattern: /^(\/partner)?\/api\/signing\/1\.0(\/.*)?$/,
    successor: (rest) => `/signing/1.0${rest}`,
    successorName: '/partner/signing/1.0/…',
    documented: { retired: '/api/signing/1.0', successor: '/signing/1.0' },
    before: 'alias',
    end: startOfDay('2024-03-28'),
    deprecatedAt: startOfDay('2024-03-28'),
  },
  {
    pattern: /^(\/partner)?\/applications(\/.*)?$/,
    successor: (rest) => `/mortgage/2.0${rest}`,
    successorName: '/mortgage/2.0/…',
    documented: { retired: '/applications', successor: '/mortgage/2.0' },
    before: 'alias',
    end: startOfDay('2024-04-12'),
    deprecatedAt: startOfDay('2024-04-12'),
  },
  {
    pattern: /^(\/partner)?\/api\/loan-application\/1\.0\/mortgages\/preapproval(\/.*)?$/,
    successor: (rest) => `/mortgage/2.0/pre-approval${rest}`,
    successorName: '/mortgage/2.0/pre-approval…',
    documented: { retired: '/api/loan-application/1.0/mortgages/preapproval', successor: '/mortgage/2.0/pre-approval' },
    before: 'alias',
    end: null,
    deprecatedAt: startOfDay('2024-04-12'),
  },
];

export interface RetiredMatch {
  row: RetiredVersion;
  /** The successor path with the caller's prefix (and query) kept. */
  successorUrl: string;
}

/** The row a request path falls under, if any. */
export function matchRetired(method: string, url: string): RetiredMatch | null {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt);
  for (const row of RETIRED_VERSIONS) {
    const match = row.pattern.exec(path);
    if (!match || (row.methods && !row.methods.includes(method))) continue;
    return { row, successorUrl: `${match[1] ?? ''}${row.successor(match[2] ?? '')}${query}` };
  }
  return null;
}
