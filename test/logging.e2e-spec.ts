import { createTestApp, TestApp } from './support/test-app';

const SECRET_CERT = 'TUlJQ0xEQ0NBZEtnQXdJQkFnSVFCRSszaWtTaWo0aXNyb2JoUTNCbFR6QUtCZ2dxaGtqT1BRUURBakJx';

describe('structured logs (DEVELOPERS.md §7: secrets stay secret)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const linesFor = (id: string) => t.logs.filter((line) => (line.req as { id?: string } | undefined)?.id === id);

  it('writes one JSON line per request carrying a request id, echoed as X-Request-Id', async () => {
    const res = await t.http.get('/health').expect(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = linesFor(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', res: { statusCode: 200 }, req: { method: 'GET', url: '/health' } });
  });

  it('keeps a well-formed incoming X-Request-Id', async () => {
    const res = await t.http.get('/health').set('X-Request-Id', 'trace-abc.123').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-abc.123');
    expect(linesFor('trace-abc.123')).toHaveLength(1);
  });

  it('redacts Authorization and X-PSD2-CLIENT-TEST-CERT (issue 2: logging)', async () => {
    const res = await t.http
      .get('/health')
      .set('Authorization', 'Bearer super-secret-partner-key')
      .set('X-PSD2-CLIENT-TEST-CERT', SECRET_CERT)
      .expect(200);
    const text = JSON.stringify(linesFor(res.headers['x-request-id']));
    expect(text).not.toContain('super-secret-partner-key');
    expect(text).not.toContain(SECRET_CERT);
    expect(text).toContain('[redacted]');
  });

  it('redacts the admin key on admin routes, also when it is wrong', async () => {
    const res = await t.http.get('/admin/clock').set('Authorization', 'Bearer wrong-admin-key-attempt').expect(401);
    expect(JSON.stringify(linesFor(res.headers['x-request-id']))).not.toContain('wrong-admin-key-attempt');
  });

  it('redacts the autostarttoken query parameter', async () => {
    const res = await t.http.get('/health?autostarttoken=6f1a2b3c-secret&other=kept').expect(200);
    const [line] = linesFor(res.headers['x-request-id']);
    expect((line.req as { url: string }).url).toBe('/health?autostarttoken=%5Bredacted%5D&other=kept');
    expect(JSON.stringify(line)).not.toContain('6f1a2b3c-secret');
  });

  it('never logs form fields refresh_token and pending_code', async () => {
    const res = await t.http.post('/health').type('form').send('refresh_token=rt-secret-value&pending_code=pc-secret-value');
    const text = JSON.stringify(linesFor(res.headers['x-request-id']));
    expect(text).not.toContain('rt-secret-value');
    expect(text).not.toContain('pc-secret-value');
  });
});
