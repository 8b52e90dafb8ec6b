import { Controller, Get, Module } from '@nestjs/common';
import { Access } from '@app/common';
import { createTestApp } from './support/test-app';

/** Test-only routes: one names a strategy nobody registers (a typo), one a registered strategy. */
@Controller('test-only')
class MisspeltPolicyController {
  @Get('typo')
  @Access({ strategy: 'partnr' })
  typo(): string {
    return 'should never be reached';
  }

  @Get('fine')
  @Access({ strategy: 'admin' })
  fine(): string {
    return 'fine';
  }
}

@Module({ controllers: [MisspeltPolicyController] })
class MisspeltPolicyModule {}

describe('access policies checked at boot (issue 14, contract §3)', () => {
  it('fails the start when a route names an access strategy no module registers, naming the route and the strategy (issue 14, contract §3)', async () => {
    const start = createTestApp({ imports: [MisspeltPolicyModule] });
    await expect(start).rejects.toThrow('GET /test-only/typo (MisspeltPolicyController.typo) names the access strategy "partnr", which no module registers');
    await expect(start).rejects.not.toThrow('test-only/fine');
  });
});
