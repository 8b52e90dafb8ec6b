import { Controller, Get, Module, Post } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Public } from '@app/common';
import { expectProblem } from './support/problems';
import { createTestApp, TestApp } from './support/test-app';

/** Values a failing statement carries as parameters: none may reach a log line. */
const SECRET_PARAMETER = 'sk-live-3f9a1c77e2b04d5e';
const SECRET_KEY_HASH = 'f00dfeed'.repeat(8);

/** Test-only routes whose statements fail inside PostgreSQL with a secret-looking parameter. */
@Controller('test-only')
class FailingQueryController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** 22P02: PostgreSQL's message quotes the value ("invalid input syntax for type uuid: …"). */
  @Get('bad-uuid')
  @Public()
  async badUuid(): Promise<void> {
    await this.dataSource.query('SELECT id FROM partner WHERE id = $1', [SECRET_PARAMETER]);
  }

  /** 23505: PostgreSQL's detail quotes the key ("Key (api_key_hash)=(…) already exists."). */
  @Post('duplicate-key')
  @Public()
  async duplicateKey(): Promise<void> {
    for (let i = 0; i < 2; i++) {
      await this.dataSource.query('INSERT INTO partner (name, api_key_hash) VALUES ($1, $2)', [SECRET_PARAMETER, SECRET_KEY_HASH]);
    }
  }
}

@Module({ controllers: [FailingQueryController] })
class FailingQueryModule {}

/**
 * Issue 13 (DEVELOPERS.md: secrets never logged): every log line of this file, at debug level, is
 * searched for the secrets the requests carried.
 */
describe('secrets in logs (issue 13: query strings, SQL parameters)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Debug level: TypeORM's query-error lines are written too, and must not carry parameters either.
    t = await createTestApp({ env: { LOG_LEVEL: 'debug' }, imports: [FailingQueryModule] });
  });
  afterAll(() => t.close());

  const allLogs = () => t.logs.map((line) => JSON.stringify(line)).join('\n');
  const linesFor = (id: string) => t.logs.filter((line) => (line.req as { id?: string } | undefined)?.id === id);
  const unhandled = (id: string) => {
    const line = linesFor(id).find((l) => l.msg === 'unhandled error');
    expect(line).toBeDefined();
    return line!.err as Record<string, unknown>;
  };

  describe('query strings (issue 13: redacted by parameter name in the logged url)', () => {
    const NAMES = [
      'pending_code',
      'pending_authorization_code',
      'refresh_token',
      'access_token',
      'id_token',
      'api_key',
      'code',
      'token',
      'key',
      'autostarttoken',
      'autostart_token',
      'auto_start_token',
      'client_secret',
      'password',
      'qr_string',
    ];
    const planted = new Map<string, string>();
    const plant = (name: string) => {
      const value = `${name.replaceAll('_', '')}-${randomBytes(6).toString('hex')}`;
      planted.set(name, value);
      return value;
    };

    it.each([
      ['a 200', 'get', '/health'],
      ['a 404', 'get', '/no/such/route'],
      ['a 401', 'get', '/admin/clock'],
      ['a 400 of the token endpoint', 'post', '/psd2/auth/1.0/token'],
      ['a 500', 'get', '/test-only/bad-uuid'],
    ] as const)('no secret query parameter appears in any log line, in any letter case, on %s', async (_, method, path) => {
      const query = NAMES.flatMap((name) => [`${name}=${encodeURIComponent(plant(name))}`, `${name.toUpperCase()}=${encodeURIComponent(plant(`${name}_upper`))}`]);
      query.push(`token=${plant('token_repeated')}`, `Access%5FToken=${plant('access_token_encoded')}`, 'page=2');
      const res = await t.http[method](`${path}?${query.join('&')}`);
      const lines = linesFor(res.headers['x-request-id']);
      expect(lines.length).toBeGreaterThan(0);
      const text = allLogs();
      expect([...planted].filter(([, value]) => text.includes(value)).map(([name]) => name)).toEqual([]);
      const completed = lines.find((line) => line.res !== undefined) as { req: { url: string } };
      expect(completed.req.url).toContain('pending_code=%5Bredacted%5D');
      expect(completed.req.url).toContain('page=2');
    });

    it('redacts the Authorization, X-PSD2-CLIENT-TEST-CERT and Cookie headers (issue 13)', async () => {
      const values = { authorization: 'Bearer hdr-secret-1a2b3c', cert: 'hdr-cert-4d5e6f', cookie: 'session=hdr-cookie-7a8b9c' };
      const res = await t.http.get('/health').set('Authorization', values.authorization).set('X-PSD2-CLIENT-TEST-CERT', values.cert).set('Cookie', values.cookie);
      const [line] = linesFor(res.headers['x-request-id']);
      // The journal's one rule (contract §14): a credential's scheme word stays, a certificate is its fingerprint.
      expect((line.req as { headers: Record<string, unknown> }).headers).toMatchObject({
        authorization: 'Bearer [redacted]',
        'x-psd2-client-test-cert': { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        cookie: '[redacted]',
      });
      for (const value of ['hdr-secret-1a2b3c', 'hdr-cert-4d5e6f', 'hdr-cookie-7a8b9c']) expect(allLogs()).not.toContain(value);
    });
  });

  describe('database errors (issue 13: a 500 logs the SQLSTATE and the statement name, never parameter values)', () => {
    it('a value PostgreSQL quotes in its message (22P02) is not logged; the SQLSTATE and statement name are', async () => {
      const res = await t.http.get('/test-only/bad-uuid');
      expectProblem(res, 500, 'INTERNAL_ERROR');
      const err = unhandled(res.headers['x-request-id']);
      expect(err).toMatchObject({ type: 'QueryFailedError', code: '22P02', query: 'SELECT partner', message: 'invalid input syntax for type uuid' });
      expect(err).not.toHaveProperty('parameters');
      expect(err).not.toHaveProperty('where');
      expect(allLogs()).not.toContain(SECRET_PARAMETER);
    });

    it('a key PostgreSQL quotes in its detail (23505) is not logged; the constraint is', async () => {
      const res = await t.http.post('/test-only/duplicate-key');
      expectProblem(res, 500, 'INTERNAL_ERROR');
      const err = unhandled(res.headers['x-request-id']);
      expect(err).toMatchObject({ code: '23505', constraint: 'partner_api_key_hash_key', table: 'partner', query: 'INSERT partner' });
      expect(err.message).toBe('duplicate key value violates unique constraint "partner_api_key_hash_key"');
      expect(err).not.toHaveProperty('detail');
      const text = allLogs();
      expect(text).not.toContain(SECRET_KEY_HASH);
      expect(text).not.toContain(SECRET_PARAMETER);
    });

    it('TypeORM logs a slow or failed statement by name, without its text or parameters (issue 13)', () => {
      const { logger } = t.get(DataSource);
      const before = t.logs.length;
      logger.logQuerySlow(2500, 'SELECT name FROM partner WHERE api_key_hash = $1', [SECRET_KEY_HASH]);
      logger.logQueryError(new Error('failed'), 'UPDATE partner SET name = $2 WHERE api_key_hash = $1', [SECRET_KEY_HASH, SECRET_PARAMETER]);
      const written = t.logs.slice(before);
      expect(written).toEqual([
        expect.objectContaining({ msg: 'slow query', query: 'SELECT partner', duration_ms: 2500 }),
        expect.objectContaining({ msg: 'query failed', query: 'UPDATE partner' }),
      ]);
      expect(JSON.stringify(written)).not.toContain(SECRET_KEY_HASH);
      expect(JSON.stringify(written)).not.toContain('api_key_hash = $1');
      expect(allLogs()).not.toContain(SECRET_PARAMETER);
    });
  });
});
