import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { SandboxContext } from '../sandbox/sandbox-context';
import { logRedactionFailed, LOG_REDACTION_FAILED, loggedRequest, redactLogLine } from './log-redaction';
import { pinoHttpOptions } from './logging.module';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** A secret value: distinctive, so finding it in a line means it leaked. */
const secret = fc.stringMatching(/^[A-Za-z0-9_-]{20,32}$/).map((value) => `S3CR3T${value}`);
const oddCase = (text: string) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const queryName = fc.constantFrom('access_token', 'accessToken', 'access-token', 'ACCESS_TOKEN', 'a[access_token]', 'access_token[]', 'pending_code', 'autostarttoken', 'code', 'key', 'client_secret');
const headerName = fc.constantFrom('X-Auth-Token', 'Api-Key', 'X-Client-Secret', 'X-Session', 'X-Signature', 'Authorization', 'Cookie', 'X-Password', 'Proxy-Authorization').chain(oddCase);

/** What the service logs while it serves a request, at every level: a failure that names the request, fields, a message with its url. */
function logWhileServing(logger: Logger, req: IncomingMessage, planted: string): void {
  logger.error({ err: new Error(`failed serving ${req.url}`), path: req.url }, 'unhandled error');
  logger.warn({ access_token: planted, accessToken: planted, nested: { pending_code: planted, note: `eid://autostarttoken=${planted}&redirect=null` } }, 'fields that name secrets');
  logger.info(`served ${req.url}`);
  logger.debug({ url: req.url }, 'debug line');
  logger.trace({ link: `bankid:///?autostarttoken=${planted}` }, 'trace line');
}

describe.each(LEVELS)('logs at LOG_LEVEL=%s redact with the one redaction (contract §14)', (level) => {
  const lines: string[] = [];
  /** The value planted in a request, by its request id: what the service would log meanwhile. */
  const plantedFor = new Map<string, string>();
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const middleware = pinoHttp(pinoHttpOptions(level), destination);
    server = createServer((req, res) => {
      middleware(req, res);
      const planted = plantedFor.get(String(req.headers['x-request-id'])) ?? '';
      // At warn and above the service logs through the root logger, whose mixin names the request from its context.
      SandboxContext.run('default', () => {
        logWhileServing(middleware.logger, req, planted);
        logWhileServing(req.log, req, planted);
      }, req);
      res.statusCode = 500;
      res.setHeader('Set-Cookie', `session=${planted}`);
      res.setHeader('Location', `eid://autostarttoken=${planted}&redirect=null`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(path: string, headers: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        // pino-http writes the request line when the answer has finished: a turn later.
        res.on('end', () => setImmediate(resolve));
      })
        .on('error', reject)
        .end();
    });
  }

  it(`contract §14: no secret planted in the url (query in every spelling, fragment), in headers of any secret-ish name and case, in the Idempotency-Key, or in what the service logs meanwhile, reaches a line at ${level}`, async () => {
    await fc.assert(
      fc.asyncProperty(secret, queryName, headerName, fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/), async (planted, name, header, idempotencyKey) => {
        const requestId = `req-${createHash('sha256').update(planted).digest('hex').slice(0, 16)}`;
        plantedFor.set(requestId, planted);
        const before = lines.length;
        const path = `/x/${encodeURIComponent('y')}?page=2&${encodeURIComponent(name)}=${planted}&next=${encodeURIComponent(`https://tpp.example/cb?access_token=${planted}`)}#access_token=${planted}`;
        await send(path, {
          'X-Request-Id': requestId,
          [header]: `Bearer ${planted}`,
          'Idempotency-Key': idempotencyKey,
          'X-Note': `eid://autostarttoken=${planted}&redirect=null`,
          'X-PSD2-CLIENT-TEST-CERT': `MIIB${planted}${'A'.repeat(200)}`,
        });
        const written = lines.slice(before);
        const leaking = written.filter((line) => line.includes(planted) || line.includes(idempotencyKey));
        expect(leaking).toEqual([]);
        for (const line of written) expect((): unknown => JSON.parse(line)).not.toThrow();
        const parsed = written.map((line) => JSON.parse(line) as { level: number; msg?: string; req?: { id?: string; url?: string; headers?: Record<string, unknown> } });
        // The failure is logged at every level, naming its request by id and its url redacted: at warn and above
        // through the root logger's mixin, below through the request's own logger (nestjs-pino uses that one then).
        const failures = parsed.filter((line) => line.msg === 'unhandled error');
        expect(failures.length).toBe(2);
        const named = failures.filter((failure) => failure.req !== undefined);
        expect(named.length).toBeGreaterThan(0);
        for (const failure of named) expect(failure.req).toMatchObject({ id: requestId, url: expect.stringContaining('%5Bredacted%5D') as unknown });
        if (['trace', 'debug', 'info'].includes(level)) {
          const completed = parsed.find((line) => line.msg === 'request errored' || line.msg === 'request completed');
          expect(completed?.req?.headers).toMatchObject({
            [header.toLowerCase()]: 'Bearer [redacted]',
            'idempotency-key': `[redacted sha256:${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12)}]`,
            'x-note': 'eid://autostarttoken=%5Bredacted%5D&redirect=null',
            'x-psd2-client-test-cert': { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown },
          });
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('a log redaction that fails lets nothing through (contract §14)', () => {
  it('a request whose redaction throws is logged as "[redaction failed]", and counted', () => {
    const failures = logRedactionFailed();
    const headers = new Proxy({}, { ownKeys: () => { throw new Error('S3CR3Tinside'); } });
    expect(loggedRequest({ url: '/x?access_token=S3CR3T', headers })).toBe(LOG_REDACTION_FAILED);
    expect(logRedactionFailed()).toBe(failures + 1);
  });

  it('a line whose redaction throws is replaced by a line that says so, at its level, and counted', () => {
    const failures = logRedactionFailed();
    const line = { includes: () => { throw new Error('S3CR3Tinside'); } } as unknown as string;
    expect(redactLogLine(line)).toBe('{"level":50,"msg":"log line dropped: its redaction failed"}\n');
    expect(logRedactionFailed()).toBe(failures + 1);
  });
});
