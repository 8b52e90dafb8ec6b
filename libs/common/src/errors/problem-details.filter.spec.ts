import { HttpException } from '@nestjs/common';
import { CODE_OF_STATUS, toProblem } from './problem-details.filter';

describe('the one status → code map (contract §2)', () => {
  it('a Nest HttpException of 409 is INVALID_STATE, the catalogue code of a wrong state (contract §2)', () => {
    expect(toProblem(new HttpException('busy', 409))).toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });

  it('maps every status to a code of the catalogue, never CONFLICT (contract §2 catalogue)', () => {
    expect(Object.values(CODE_OF_STATUS)).not.toContain('CONFLICT');
  });
});
