import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IsInt, IsString } from 'class-validator';
import { Public } from '@app/common';
import { expectProblem, expectValidationFailed } from './support/problems';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

class EchoDto {
  @IsString()
  name: string;

  @IsInt()
  count: number;
}

/** Test-only routes: one that fails unexpectedly, one that forgot its access policy, one that echoes. */
@Controller('test-only')
class TestOnlyController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error('database password is hunter2');
  }

  @Get('undeclared')
  undeclared(): string {
    return 'should never be reached';
  }

  @Post('echo')
  @Public()
  echo(@Body() dto: EchoDto): EchoDto {
    return dto;
  }
}

@Module({ controllers: [TestOnlyController] })
class TestOnlyModule {}

describe('errors, validation and the global guard (contract §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [TestOnlyModule] });
  });
  afterAll(() => t.close());

  it('answers an unknown route with a 404 NOT_FOUND problem (contract §2)', async () => {
    const res = await t.http.get('/no/such/route');
    expectProblem(res, 404, 'NOT_FOUND');
    expect(res.body.instance).toBe('/no/such/route');
    expect(res.body.title).toBe('Not Found');
  });

  it('answers anything unexpected with 500 INTERNAL_ERROR, logs the cause, and leaks nothing (contract §2)', async () => {
    const res = await t.http.get('/test-only/boom');
    expectProblem(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(t.logs.some((line) => JSON.stringify(line).includes('database password is hunter2') && line.level === 50)).toBe(true);
  });

  it('refuses a route that declares no access policy (deny by default)', async () => {
    expectProblem(await t.http.get('/test-only/undeclared'), 401, 'UNAUTHORIZED');
  });

  it('refuses malformed JSON with 400 VALIDATION_FAILED (contract §2)', async () => {
    const res = await t.http.post('/test-only/echo').set('Content-Type', 'application/json').send('{"name": "x", ');
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.reason.message).toMatch(/JSON/);
  });

  it('refuses a body over 1 MB with 413 PAYLOAD_TOO_LARGE, whatever its content type (contract §2)', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), count: 1 });
    expectProblem(await t.http.post('/test-only/echo').set('Content-Type', 'application/json').send(big), 413, 'PAYLOAD_TOO_LARGE');
    expectProblem(await t.http.post('/test-only/echo').set('Content-Type', 'text/plain').send(big), 413, 'PAYLOAD_TOO_LARGE');
    expectProblem(await t.http.post('/test-only/echo').type('form').send(`name=${'x'.repeat(1024 * 1024)}`), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses a body over 1 MB sent without a length (chunked) with 413 (contract §2)', async () => {
    const server = await t.app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/test-only/echo', method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // No Content-Length: node sends Transfer-Encoding: chunked, so only the parser's limit can catch it.
      for (let i = 0; i < 11; i++) req.write('y'.repeat(100 * 1024));
      req.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).reason.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('accepts a body just under 1 MB', async () => {
    const name = 'z'.repeat(1000 * 1000);
    const res = await t.http.post('/test-only/echo').send({ name, count: 1 }).expect(201);
    expect(res.body.name).toHaveLength(name.length);
  });

  it('names every offending field, the unknown ones included (contract §2)', async () => {
    const res = await t.http.post('/test-only/echo').send({ name: 7, count: 'many', extra: true });
    expectValidationFailed(res, 'name');
    expect(res.body.reason.message).toContain('count');
    expect(res.body.reason.message).toContain('extra');
  });

  it('says which rule a field broke: an absent field is required, a wrong type is a wrong type, not a range it never reached (contract §2)', async () => {
    const advance = (body: string) => t.admin.post('/admin/clock/advance').set('Content-Type', 'application/json').send(body);
    for (const body of ['{}', '{"seconds":null}']) {
      const res = await advance(body);
      expectValidationFailed(res, 'seconds');
      expect(res.body.reason.message).toBe('seconds is required');
    }
    const text = await advance('{"seconds":"10"}');
    expectValidationFailed(text, 'seconds');
    expect(text.body.reason.message).toBe('seconds must be a number with at most three decimals');
    const negative = await advance('{"seconds":-1}');
    expect(negative.body.reason.message).toMatch(/seconds must not be negative/);
    const nested = await t.admin.put('/admin/clock').send({ now: '2026-11-24T10:00:00+01:00', frozen: 'yes' });
    expectValidationFailed(nested, 'frozen');
    expect(nested.body.reason.message).not.toMatch(/required/);
  });

  it('names an unknown field of a nested object by its path (contract §2)', async () => {
    const res = await t.admin.post('/sandboxes').send({ name: 'nested-unknown', clock: { now: '2026-11-24T10:00:00+01:00', extra: 1 } });
    expectValidationFailed(res, 'clock.extra');
  });

  it('refuses a JSON array or string where an object is expected with 400, never 500 (contract §2)', async () => {
    expectProblem(await t.http.post('/test-only/echo').set('Content-Type', 'application/json').send('[]'), 400, 'VALIDATION_FAILED');
    expectProblem(await t.http.post('/test-only/echo').set('Content-Type', 'application/json').send('"text"'), 400, 'VALIDATION_FAILED');
  });

  it('answers an empty body with the missing fields named (contract §2)', async () => {
    expectValidationFailed(await t.http.post('/test-only/echo'), 'name');
  });

  it('sends problem bodies as application/problem+json with the reason phrase as title (bank §2.8)', async () => {
    const res = await t.http.get('/admin/clock').set('Authorization', 'Bearer nope');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      instance: '/admin/clock',
      reason: { code: 'UNAUTHORIZED', message: expect.any(String) },
    });
  });

  it('checks credentials before input: a bad body to an admin route without a key is 401, not 400 (contract §1)', async () => {
    expectProblem(await t.http.put('/admin/users/123').send({ bogus: true }), 401, 'UNAUTHORIZED');
    await t.http.put('/admin/users/123').set('Authorization', `Bearer ${ADMIN_KEY}`).send({ bogus: true }).expect(400);
  });
});
