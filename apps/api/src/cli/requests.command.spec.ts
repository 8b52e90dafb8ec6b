import type { JournalEntryDto } from '@app/sandbox';
import { requestLine } from './requests.command';

const entry = (fields: Partial<JournalEntryDto>): JournalEntryDto => ({
  request_id: 'r-1',
  at: '2026-11-24T09:00:01.250Z',
  arrived_at: '2026-11-25T20:00:00.000Z',
  method: 'GET',
  path: '/v2/accounts',
  query: {},
  status: 200,
  duration_ms: 12,
  caller: { kind: 'tpp', id: 'PSDSE-FINA-44059' },
  request: { headers: {} },
  response: {},
  hints: [],
  ...fields,
});

describe('requests tail: one line per journal entry (contract §14)', () => {
  it('a clean entry: the sandbox time in Stockholm to the second, method, path, status, duration and caller kind:id', () => {
    expect(requestLine(entry({}))).toBe('2026-11-24T10:00:01+01:00 GET /v2/accounts 200 12ms tpp:PSDSE-FINA-44059');
  });

  it('a refusal: its reason code, then the hint codes in brackets; summer time shows +02:00', () => {
    const hints = [
      { code: 'TOKEN_EXPIRED' as const, message: '…', section: 'bank §5.5' },
      { code: 'POLLED_TOO_FAST' as const, message: '…', section: 'bank §4.1' },
    ];
    expect(requestLine(entry({ at: '2026-06-01T08:00:00Z', status: 401, reason_code: 'UNAUTHORIZED', hints }))).toBe(
      '2026-06-01T10:00:00+02:00 GET /v2/accounts 401 12ms tpp:PSDSE-FINA-44059 UNAUTHORIZED [TOKEN_EXPIRED, POLLED_TOO_FAST]',
    );
  });

  it('a caller without an id is its kind alone; an Idempotency-Key replay says so', () => {
    expect(requestLine(entry({ method: 'POST', path: '/signing/1.0/start', caller: { kind: 'anonymous' }, replayed: true }))).toBe(
      '2026-11-24T10:00:01+01:00 POST /signing/1.0/start 200 12ms anonymous (replayed)',
    );
  });
});
