import { expect } from '@jest/globals';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { queryName, redactUrl, serializeError } from './log-redaction';

describe('log redaction (issue 13: secrets never logged)', () => {
  describe(redactUrl.name, () => {
    it('replaces the value of every secret parameter, by name in any letter case, each of a repeated one, and keeps the others', () => {
      expect(redactUrl('/x?Access_Token=a&page=2&PASSWORD=b&token=c&token=d')).toBe('/x?Access_Token=%5Bredacted%5D&page=2&PASSWORD=%5Bredacted%5D&token=%5Bredacted%5D&token=%5Bredacted%5D');
    });

    it('finds a percent-encoded name, and leaves a url without secrets byte for byte', () => {
      expect(redactUrl('/x?pending%5Fcode=abc')).toBe('/x?pending%5Fcode=%5Bredacted%5D');
      expect(redactUrl('/x?q=a%20b&sort=-date')).toBe('/x?q=a%20b&sort=-date');
      expect(redactUrl('/x')).toBe('/x');
    });
  });

  describe(queryName.name, () => {
    it.each([
      ['SELECT id, name FROM partner WHERE api_key_hash = $1', 'SELECT partner'],
      ['  UPDATE eid_order\n   SET status = $2 -- a comment FROM nowhere\n WHERE id = $1', 'UPDATE eid_order'],
      ['INSERT INTO "psd2_authorization"("pending_code_hash") VALUES ($1)', 'INSERT psd2_authorization'],
      ['DELETE FROM public.job_lease WHERE name = $1', 'DELETE public.job_lease'],
      ["SELECT pg_advisory_lock($1)", 'SELECT'],
    ])('%s → %s', (sql, name) => {
      expect(queryName(sql)).toBe(name);
    });
  });

  describe(serializeError.name, () => {
    const pgError = (message: string, fields: Partial<DatabaseError>) => Object.assign(new DatabaseError(message, 100, 'error'), fields);

    it('logs a database error by SQLSTATE, names and statement name, without detail, where or parameters', () => {
      const driverError = pgError('invalid input syntax for type uuid: "sk-secret"', {
        code: '22P02',
        severity: 'ERROR',
        routine: 'string_to_uuid',
        where: "unnamed portal parameter $1 = '...'",
        detail: 'sk-secret',
      });
      const error = new QueryFailedError('SELECT id FROM partner WHERE id = $1', ['sk-secret'], driverError);
      const logged = serializeError({ raw: error }) as Record<string, unknown>;
      expect(logged).toEqual({
        type: 'QueryFailedError',
        message: 'invalid input syntax for type uuid',
        code: '22P02',
        severity: 'ERROR',
        routine: 'string_to_uuid',
        query: 'SELECT partner',
        stack: expect.stringMatching(/^QueryFailedError: invalid input syntax for type uuid\n\s+at /),
      });
      expect(JSON.stringify(logged)).not.toContain('sk-secret');
    });

    it('keeps quoted names PostgreSQL reports as fields, and hides other quoted values', () => {
      const logged = serializeError({
        raw: pgError('value "123456789012" is out of range for column "amount" of relation "transfer"', { code: '22003', severity: 'ERROR', column: 'amount', table: 'transfer' }),
      });
      expect(logged).toMatchObject({ message: 'value "…" is out of range for column "amount" of relation "transfer"', code: '22003' });
    });

    it('hides a database error given as the cause of another error', () => {
      const cause = new QueryFailedError('UPDATE partner SET name = $1', ['sk-secret'], pgError('new row violates check constraint "c"', { code: '23514', severity: 'ERROR', constraint: 'c', detail: 'Failing row contains (sk-secret).' }));
      const logged = serializeError({ raw: new Error('job failed', { cause }) });
      expect(logged).toMatchObject({ type: 'Error', message: 'job failed', cause: { code: '23514', constraint: 'c', query: 'UPDATE partner' } });
      expect(JSON.stringify(logged)).not.toContain('sk-secret');
    });

    it('keeps pino\'s standard serialization of any other error, without the error itself', () => {
      const serialized = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x', raw: new Error('boom') };
      expect(serializeError(serialized)).toEqual({ type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' });
    });
  });
});
