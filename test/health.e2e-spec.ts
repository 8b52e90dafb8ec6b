import { createTestApp, TestApp } from './support/test-app';

describe('health (contract §1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 {"status":"ok"} without auth when the database answers (contract §1)', async () => {
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
