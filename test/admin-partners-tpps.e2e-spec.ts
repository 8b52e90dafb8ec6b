import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerService, TppRegistry } from '@app/directory';
import { expectProblem, expectValidationFailed } from './support/problems';
import { createTestApp, TestApp } from './support/test-app';

describe('admin partners and TPPs (contract §8, §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /admin/partners', () => {
    it('answers 201 { partner_id (UUID), name, api_key } with a random 43-character key (contract §8)', async () => {
      const res = await t.admin.post('/admin/partners', { name: 'Mäklarbyrån AB' }).expect(201);
      expect(res.body).toEqual({
        partner_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: 'Mäklarbyrån AB',
        api_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(await t.get(PartnerService).authenticate(res.body.api_key)).toEqual({ id: res.body.partner_id, name: 'Mäklarbyrån AB' });
    });

    it('uses a given api_key so a partner\'s CI can know it (contract §8)', async () => {
      const key = 'ci-partner-key-0123456789-given';
      const res = await t.admin.post('/admin/partners', { name: 'CI Partner AB', api_key: key }).expect(201);
      expect(res.body.api_key).toBe(key);
      expect((await t.get(PartnerService).authenticate(key))?.id).toBe(res.body.partner_id);
    });

    it('stores only the SHA-256 of the key, never the key (DEVELOPERS.md: secrets stay secret)', async () => {
      const key = 'ci-partner-key-never-stored-in-clear';
      await t.admin.post('/admin/partners', { name: 'Hemlig AB', api_key: key }).expect(201);
      const rows: Array<Record<string, unknown>> = await t.get(DataSource).query('SELECT * FROM partner WHERE name = $1', ['Hemlig AB']);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(key);
      expect(rows[0].api_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    });

    it('answers 409 CONFLICT when the given api_key belongs to another partner', async () => {
      const key = 'ci-partner-key-taken-0000000000';
      await t.admin.post('/admin/partners', { name: 'Först AB', api_key: key }).expect(201);
      expectProblem(await t.admin.post('/admin/partners', { name: 'Sen AB', api_key: key }), 409, 'CONFLICT');
    });

    it('refuses a missing name with 400 naming name (contract §8, §2)', async () => {
      expectValidationFailed(await t.admin.post('/admin/partners', {}), 'name');
    });

    it('refuses a short or non-ASCII api_key with 400 naming api_key', async () => {
      expectValidationFailed(await t.admin.post('/admin/partners', { name: 'X', api_key: 'short' }), 'api_key');
      expectValidationFailed(await t.admin.post('/admin/partners', { name: 'X', api_key: 'nyckel med mellanslag och åäö' }), 'api_key');
    });

    it('does not recognise an unknown key', async () => {
      expect(await t.get(PartnerService).authenticate('no-such-key-000000000000')).toBeNull();
    });
  });

  describe('PUT /admin/tpps/{organization_id}', () => {
    it('answers 200 with the settings, for a new and for a known TPP (contract §8)', async () => {
      const first = await t.admin.put('/admin/tpps/PSDSE-FINA-12345', { non_authenticated_token_lifetime_s: 900 }).expect(200);
      expect(first.body).toEqual({ organization_id: 'PSDSE-FINA-12345', non_authenticated_token_lifetime_s: 900 });
      const second = await t.admin.put('/admin/tpps/PSDSE-FINA-12345', { non_authenticated_token_lifetime_s: 600 }).expect(200);
      expect(second.body.non_authenticated_token_lifetime_s).toBe(600);
    });

    it('is the TPP that a certificate with that organizationIdentifier identifies (contract §3)', async () => {
      await t.admin.put('/admin/tpps/PSDSE-FINA-55555', { non_authenticated_token_lifetime_s: 120 }).expect(200);
      const tpp = await t.get(TppRegistry).identify({ organizationId: 'PSDSE-FINA-55555', fingerprint: 'ab'.repeat(32) });
      expect(tpp.nonAuthenticatedTokenLifetimeS).toBe(120);
    });

    it('registers an unknown TPP on first use with the default lifetime 1800 s (contract §3, bank §4.1)', async () => {
      const registry = t.get(TppRegistry);
      const first = await registry.identify({ organizationId: null, fingerprint: 'cd'.repeat(32) });
      expect(first).toMatchObject({ identifier: `sha256:${'cd'.repeat(32)}`, nonAuthenticatedTokenLifetimeS: 1800 });
      const again = await registry.identify({ organizationId: null, fingerprint: 'cd'.repeat(32) });
      expect(again.id).toBe(first.id);
    });

    it.each([[-5], [0], ['long'], [1.5]])('refuses non_authenticated_token_lifetime_s=%p with 400 naming it (contract §8, §2)', async (value) => {
      expectValidationFailed(await t.admin.put('/admin/tpps/PSDSE-FINA-1', { non_authenticated_token_lifetime_s: value }), 'non_authenticated_token_lifetime_s');
    });

    it('refuses an organization_id with characters outside letters, digits, ".", "_", "-"', async () => {
      expectValidationFailed(await t.admin.put('/admin/tpps/PSD%20SE', { non_authenticated_token_lifetime_s: 60 }), 'organization_id');
    });
  });
});
