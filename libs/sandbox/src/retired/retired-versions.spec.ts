import { matchRetired, RETIRED_VERSIONS } from './retired-versions';

describe('retired paths (contract §12)', () => {
  it('ends at the instants of contract §12: end of day and start of day in Stockholm', () => {
    expect(RETIRED_VERSIONS.map((r) => r.end?.toISOString() ?? null)).toEqual([
      '2024-04-30T22:00:00.000Z',
      '2024-04-30T22:00:00.000Z',
      '2024-04-30T22:00:00.000Z',
      '2024-04-30T22:00:00.000Z',
      '2024-03-27T23:00:00.000Z',
      '2024-04-11T22:00:00.000Z',
      null,
    ]);
    expect(RETIRED_VERSIONS[6].deprecatedAt.toISOString()).toBe('2024-04-11T22:00:00.000Z');
  });

  it('maps each retired path to its successor, keeping the /partner prefix and the query', () => {
    expect(matchRetired('POST', '/psd2/savings/2.0/accounts/1/transfers')?.successorUrl).toBe('/psd2/savings/3.0/accounts/1/transfers');
    expect(matchRetired('PUT', '/api/loan-application/1.0/mortgages/sign-bankid/a/applicant/b')?.successorUrl).toBe('/api/loan-application/2.0/mortgages/sign-bankid/a/participant/b');
    expect(matchRetired('POST', '/partner/api/signing/1.0/collect')?.successorUrl).toBe('/partner/signing/1.0/collect');
    expect(matchRetired('GET', '/applications/pre-approval/x/status?y=1')?.successorUrl).toBe('/mortgage/2.0/pre-approval/x/status?y=1');
    expect(matchRetired('GET', '/api/loan-application/1.0/mortgages/preapproval/x/status')?.successorUrl).toBe('/mortgage/2.0/pre-approval/x/status');
  });

  it('the redirect flows are GET only; current paths match nothing', () => {
    expect(matchRetired('GET', '/psd2/auth/1.0/authenticate')?.row.before).toBe('not_simulated');
    expect(matchRetired('GET', '/psd2/auth/2.0/authorize')?.row.before).toBe('not_simulated');
    expect(matchRetired('POST', '/psd2/auth/1.0/token')).toBeNull();
    expect(matchRetired('POST', '/psd2/auth/3.0/authenticate')).toBeNull();
    expect(matchRetired('POST', '/signing/1.0/start')).toBeNull();
    expect(matchRetired('GET', '/api/loan-application/2.0/mortgages/status/x')).toBeNull();
  });
});
