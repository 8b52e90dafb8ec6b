import { BadRequestException, HttpException } from '@nestjs/common';
import { ValidationFailed } from './domain-error';
import { listAtMost, ProblemList } from './field-list';
import { CODE_OF_STATUS, ERROR_BODY_LIMIT_BYTES, errorAnswer, toProblem } from './problem-details.filter';

describe('the one status → code map (contract §2)', () => {
  it('a Nest HttpException of 409 is INVALID_STATE, the catalogue code of a wrong state (contract §2)', () => {
    expect(toProblem(new HttpException('busy', 409))).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });

  it('maps every status to a code of the catalogue, never CONFLICT (contract §2 catalogue)', () => {
    expect(Object.values(CODE_OF_STATUS)).not.toContain('CONFLICT');
  });
});

describe('no error body is larger than 16 KB (contract §2, bounded work)', () => {
  const huge = (unit: string) => new ValidationFailed(unit.repeat(400_000));

  it('cuts a problem\'s message to fit, marked as cut, whatever its characters (ASCII, multi-byte, escaped)', () => {
    for (const unit of ['a', 'å', '😀', '"', '\u0001', 'ab\ud800']) {
      const answer = errorAnswer(huge(unit), '/sandbox/eid/open');
      expect(Buffer.byteLength(answer.body)).toBeLessThanOrEqual(ERROR_BODY_LIMIT_BYTES);
      const body = JSON.parse(answer.body) as { reason: { code: string; message: string }; instance: string };
      expect(body.reason.code).toBe('VALIDATION_FAILED');
      expect(body.reason.message).toMatch(/… \(cut to fit 16 KB\)$/);
      expect(body.reason.message.length).toBeGreaterThan(ERROR_BODY_LIMIT_BYTES / 8);
      expect(body.instance).toBe('/sandbox/eid/open');
    }
  });

  it('cuts error_description at the token endpoints, which answer RFC 6749 JSON (contract §2 table)', () => {
    for (const path of ['/psd2/auth/1.0/token', '/api/auth/1.0/token']) {
      const answer = errorAnswer(huge('x'), path);
      expect(Buffer.byteLength(answer.body)).toBeLessThanOrEqual(ERROR_BODY_LIMIT_BYTES);
      const body = JSON.parse(answer.body) as Record<string, string>;
      expect(Object.keys(body)).toEqual(['error', 'error_description']);
      expect(body.error).toBe('invalid_request');
      expect(body.error_description).toMatch(/^x+… \(cut to fit 16 KB\)$/);
    }
  });

  it('cuts a request path longer than 2 048 characters in instance, so even a long path leaves room for the message', () => {
    const answer = errorAnswer(huge('m'), `/${'p'.repeat(15_000)}`);
    expect(Buffer.byteLength(answer.body)).toBeLessThanOrEqual(ERROR_BODY_LIMIT_BYTES);
    expect((JSON.parse(answer.body) as { instance: string }).instance).toBe(`/${'p'.repeat(2047)}…`);
  });

  it('leaves a message within the limit as it is', () => {
    expect(JSON.parse(errorAnswer(new ValidationFailed('name is required'), '/admin/partners').body)).toMatchObject({ reason: { message: 'name is required' } });
  });
});

describe('a message names at most the first 10 fields and counts the rest (contract §2, bounded work)', () => {
  it('lists up to 10 problems whole, and "… and N more" past them', () => {
    const problems = Array.from({ length: 1000 }, (_, i) => `property f${i} should not exist`);
    expect(listAtMost(problems.slice(0, 10))).toBe(problems.slice(0, 10).join('; '));
    expect(listAtMost(problems)).toBe(`${problems.slice(0, 10).join('; ')}; … and 990 more`);
    expect(listAtMost(problems.slice(0, 3), 1000)).toBe(`${problems.slice(0, 3).join('; ')}; … and 997 more`);
  });

  it('cuts one problem at 1 000 characters (a field named by a client\'s key may be of any length)', () => {
    expect(listAtMost([`property ${'k'.repeat(5000)} should not exist`])).toBe(`property ${'k'.repeat(991)}…`);
  });

  it('keeps only the first 10 of a ProblemList and counts all', () => {
    const list = new ProblemList();
    for (let i = 0; i < 25; i++) list.add([`p${i} is required`, `q${i} is required`]);
    expect(list.count).toBe(50);
    expect(list.message()).toBe(`${Array.from({ length: 5 }, (_, i) => `p${i} is required; q${i} is required`).join('; ')}; … and 40 more`);
  });

  it('Nest\'s own list of messages is listed the same way', () => {
    const answer = errorAnswer(new BadRequestException(Array.from({ length: 12 }, (_, i) => `m${i}`)), '/x');
    expect((JSON.parse(answer.body) as { reason: { message: string } }).reason.message).toBe(`${Array.from({ length: 10 }, (_, i) => `m${i}`).join('; ')}; … and 2 more`);
  });
});
