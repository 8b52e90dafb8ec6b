import { createTestApp, TestApp } from './support/test-app';

describe('health (contract §1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 {"status":"ok"} without auth when the database answers (contract §1), with the journal\'s details (contract §14)', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      details: {
        journal: { recording: true, buffered: expect.any(Number), written: expect.any(Number), lost: 0, failed_writes: 0, redaction_failed: 0 },
        logs: { redaction_failed: 0 },
      },
    });
  });
});
