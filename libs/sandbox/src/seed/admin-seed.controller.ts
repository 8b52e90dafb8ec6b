import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, Idempotent } from '@app/common';
import { SeedFixtureDto, SeedResultDto } from './seed.dto';
import { SeedService } from './seed.service';

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/seed')
export class AdminSeedController {
  constructor(private readonly seed: SeedService) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Load a fixture: users with accounts, partners, TPP settings',
    description:
      'All or nothing, in one transaction. A user that exists already is replaced as if new (contract §8): its accounts, their transfers and transactions, its consents and tokens go, and the fixture\'s accounts stand with their balances. The same file loads offline with `npm run cli -- seed <file>`. Its JSON schema is SeedFixtureDto.',
  })
  @ApiBody({ type: SeedFixtureDto })
  @ApiOkResponse({ type: SeedResultDto })
  @ApiProblems(400, 413, { status: 409, code: 'CONFLICT', description: 'An account_number or api_key belongs to someone else' })
  loadFixture(@Body() fixture: SeedFixtureDto): Promise<SeedResultDto> {
    return this.seed.load(fixture);
  }
}
