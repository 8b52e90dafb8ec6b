import { Controller, Get, Module } from '@nestjs/common';
import { Public } from '@app/common';
import { expectProblem } from './support/problems';
import { createTestApp, TestApp } from './support/test-app';

// A file of its own: the pino logger is one per process (nestjs-pino), made by the first app with
// its LOG_LEVEL, and jest gives each test file a fresh module registry.

@Controller('test-only')
class FailingController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('database password is hunter2');
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

describe('LOG_LEVEL=warn: no request lines, and a failure\'s line still names its request (issue 19, DEVELOPERS.md §7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [FailingModule], env: { LOG_LEVEL: 'warn' } });
  });
  afterAll(() => t.close());

  it('logs a 500 at error with the request\'s id, method and redacted url, without its headers; a 200 writes nothing', async () => {
    const ok = (await t.http.get('/health').expect(200)).headers['x-request-id'];
    const res = await t.http.get('/test-only/boom?autostarttoken=6f1a2b3c-secret').set('Authorization', 'Bearer super-secret-partner-key');
    expectProblem(res, 500, 'INTERNAL_ERROR');
    const id = res.headers['x-request-id'];
    const lines = t.logs.filter((line) => JSON.stringify(line).includes(id));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => (line.level as number) >= 40)).toBe(true);
    const failure = lines.find((line) => JSON.stringify(line).includes('hunter2'));
    expect(failure).toMatchObject({ level: 50, req: { id, method: 'GET', url: '/test-only/boom?autostarttoken=%5Bredacted%5D' } });
    // Only these three: the logger every request gets is made with them, so they cost little.
    expect(Object.keys(failure?.req as object).sort()).toEqual(['id', 'method', 'url']);
    expect(JSON.stringify(lines)).not.toContain('super-secret-partner-key');
    expect(JSON.stringify(lines)).not.toContain('6f1a2b3c-secret');
    expect(t.logs.filter((line) => JSON.stringify(line).includes(ok))).toEqual([]);
  });
});
