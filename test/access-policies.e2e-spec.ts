import { Controller, Get, Module } from '@nestjs/common';
import { Access, AdminOnly } from '@app/common';
import { CurrentPartner, type Partner } from '@app/directory';
import { expectProblem } from './support/problems';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

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

/** A test-only route whose parameter decorator reads another kind of principal than its policy gives. */
@Controller('test-only')
class MismatchedPrincipalController {
  @Get('mismatch')
  @AdminOnly()
  mismatch(@CurrentPartner() partner: Partner): string {
    return partner.id;
  }
}

@Module({ controllers: [MismatchedPrincipalController] })
class MismatchedPrincipalModule {}

describe('access policies and principals (issue 14, contract §3)', () => {
  it('fails the start when a route names an access strategy no module registers, naming the route and the strategy (issue 14, contract §3)', async () => {
    const start = createTestApp({ imports: [MisspeltPolicyModule] });
    await expect(start).rejects.toThrow('GET /test-only/typo (MisspeltPolicyController.typo) names the access strategy "partnr", which no module registers');
    await expect(start).rejects.not.toThrow('test-only/fine');
  });

  describe('a parameter decorator reading another kind of principal', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ imports: [MismatchedPrincipalModule] });
    });
    afterAll(() => t.close());

    it('is a programming error: 500 INTERNAL_ERROR, logged naming the handler and both kinds, never a cast (issue 14, contract §2)', async () => {
      expectProblem(await t.http.get('/test-only/mismatch').set('Authorization', `Bearer ${ADMIN_KEY}`), 500, 'INTERNAL_ERROR');
      const logged = 'MismatchedPrincipalController.mismatch reads a partner principal, but its access policy gave admin';
      expect(t.logs.some((line) => JSON.stringify(line).includes(logged) && line.level === 50)).toBe(true);
    });
  });
});
