import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem } from './support/problems';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

const ADMIN_ROUTES: Array<[method: 'get' | 'put' | 'post' | 'delete', path: string]> = [
  ['get', '/admin/clock'],
  ['put', '/admin/clock'],
  ['post', '/admin/clock/advance'],
  ['delete', '/admin/clock'],
  ['post', '/admin/jobs/run'],
  ['put', '/admin/users/191212121212'],
  ['get', '/admin/users/191212121212'],
  ['post', '/admin/users/191212121212/accounts'],
  ['post', '/admin/partners'],
  ['put', '/admin/tpps/PSDSE-FINA-1'],
  ['post', '/admin/seed'],
];

describe('admin API access (contract §3)', () => {
  describe('with ADMIN_API_KEY configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it.each(ADMIN_ROUTES)('answers %s %s without Authorization with 401 UNAUTHORIZED (contract §3)', async (method, path) => {
      expectProblem(await t.http[method](path), 401, 'UNAUTHORIZED');
    });

    it('answers a wrong key with 401 and writes nothing (contract §3)', async () => {
      const pn = newPersonalNumber();
      const res = await t.http.put(`/admin/users/${pn}`).set('Authorization', `Bearer ${ADMIN_KEY}x`).send({ name: 'X', kyc_completed: true });
      expectProblem(res, 401, 'UNAUTHORIZED');
      await t.admin.get(`/admin/users/${pn}`).expect(404);
    });

    it('answers a key of another scheme (Basic) with 401', async () => {
      expectProblem(await t.http.get('/admin/clock').set('Authorization', `Basic ${Buffer.from(`a:${ADMIN_KEY}`).toString('base64')}`), 401);
    });

    it('accepts the configured key', async () => {
      await t.admin.get('/admin/clock').expect(200);
    });
  });

  describe('without ADMIN_API_KEY', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { ADMIN_API_KEY: '' }, keepClock: true });
    });
    afterAll(() => t.close());

    it.each(ADMIN_ROUTES)('answers %s %s with 403 FORBIDDEN to everyone: closed by default (contract §3)', async (method, path) => {
      expectProblem(await t.http[method](path), 403, 'FORBIDDEN');
      expectProblem(await t.http[method](path).set('Authorization', `Bearer ${ADMIN_KEY}`), 403, 'FORBIDDEN');
    });

    it('keeps the public routes open', async () => {
      await t.http.get('/health').expect(200);
    });
  });
});
