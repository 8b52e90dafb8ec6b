import { JournalWriter } from '@app/common';
import type { Response } from 'supertest';
import { newPartner } from './support/fixtures';
import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { certificate, expectOAuthError, PSU_IP } from './support/psd2';
import { ADMIN_KEY, createTestApp, type TestApp } from './support/test-app';

/** Contract §2, bounded work: no error body is larger than this. */
const ERROR_BODY_LIMIT = 16 * 1024;
/** Contract §2: a body over 1 MB is 413; the worst bodies here stay under it. */
const ONE_MB = 1024 * 1024;

/** `count` members with short distinct names: `{"0":0,"1":0,…}`. */
const membersText = (count: number): string => `{${Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
const members = (count: number): Record<string, number> => JSON.parse(membersText(count)) as Record<string, number>;
const elements = (count: number): object[] => Array.from({ length: count }, () => ({}));
/** `[[[…]]]`, `depth` levels. */
const nestedText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/** The answer is within the 16 KB every error body keeps to. */
function expectSmallAnswer(res: Response): void {
  expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(ERROR_BODY_LIMIT);
}

/** 400 VALIDATION_FAILED whose message says `text`, within 16 KB (contract §2). */
function expectRefused(res: Response, text: string): string {
  expectValidationFailed(res, text);
  expectSmallAnswer(res);
  return (res.body as { reason: { message: string } }).reason.message;
}

describe('bounded work per request: shape limits, at most 10 fields named, no error body over 16 KB (contract §2)', () => {
  let t: TestApp;
  let cert: string;
  let partnerKey: string;
  const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
  beforeAll(async () => {
    t = await createTestApp();
    cert = await certificate();
    partnerKey = (await newPartner(t)).api_key;
  });
  afterAll(() => t.close());

  const json = (path: string, body: string, headers: Record<string, string> = {}) => t.http.post(path).set(headers).set('Content-Type', 'application/json').send(body);

  describe('a JSON body past the limits is 400 VALIDATION_FAILED naming the place, before any other check of the body', () => {
    it('120 000 unknown fields in under 1 MB, to a route that needs no credentials (POST /sandbox/eid/open): 400 naming the body, a small answer (contract §2)', async () => {
      const body = membersText(120_000);
      expect(Buffer.byteLength(body)).toBeLessThan(ONE_MB);
      const message = expectRefused(await json('/sandbox/eid/open', body), 'the body has 120000 members (at most 1000)');
      expect(message).not.toContain('should not exist');
    });

    it('an array of 10 001 elements: named users in POST /admin/seed, fixture.users in POST /sandboxes, nothing created (contract §2, §8, §13)', async () => {
      expectRefused(await json('/admin/seed', JSON.stringify({ users: elements(10_001) }), admin), 'users has 10001 elements (at most 10000)');
      const before = (await t.http.get('/sandboxes').set(admin).expect(200)).body.sandboxes.length;
      expectRefused(await json('/sandboxes', JSON.stringify({ name: 'hostile', fixture: { users: elements(10_001) } }), admin), 'fixture.users has 10001 elements (at most 10000)');
      expect((await t.http.get('/sandboxes').set(admin).expect(200)).body.sandboxes.length).toBe(before);
    });

    it('a nested array of 10 001 elements is named by its path: users.1.accounts (contract §2)', async () => {
      const user = { personal_number: newPersonalNumber(), name: 'Ann', kyc_completed: true };
      const res = await json('/admin/seed', JSON.stringify({ users: [user, { ...user, personal_number: newPersonalNumber(), accounts: elements(10_001) }] }), admin);
      expectRefused(res, 'users.1.accounts has 10001 elements (at most 10000)');
      await t.admin.get(`/admin/users/${user.personal_number}`).expect(404);
    });

    it('objects of 1 001 members nested in a fixture: the first 10 named in dot notation, the rest counted (contract §2)', async () => {
      const res = await json('/sandboxes', JSON.stringify({ name: 'hostile', fixture: { users: Array.from({ length: 15 }, () => members(1001)) } }), admin);
      const message = expectRefused(res, 'fixture.users.0 has 1001 members (at most 1000)');
      for (let i = 0; i < 10; i++) expect(message).toContain(`fixture.users.${i} has 1001 members`);
      expect(message).not.toContain('fixture.users.10 ');
      expect(message).toMatch(/… and 5 more\.$/);
    });

    it('deeper than 32 levels: 400 naming the body; 32 levels pass the limit and meet the route\'s own checks (contract §2)', async () => {
      expectRefused(await json('/sandbox/eid/open', `{"token":"x","a":${nestedText(32)}}`), 'The request body nests objects and arrays deeper than 32 levels');
      expectRefused(await json('/sandbox/eid/open', `{"token":"x","a":${nestedText(31)}}`), 'property a should not exist');
      expectRefused(await json('/admin/partners', nestedText(33), admin), 'deeper than 32 levels');
    });

    it('the shape is the first check of the body: control characters, unknown fields and a wrong Content-Type beside it are not what is named (contract §2)', async () => {
      const message = expectRefused(await json('/admin/seed', JSON.stringify({ extra: 'a\u0000b', users: elements(10_001) }), admin), 'users has 10001 elements');
      expect(message).not.toMatch(/control characters|should not exist/);
    });

    it('after the credentials (contract §1 order): a route that needs them answers 401 first', async () => {
      expectProblem(await json('/admin/seed', JSON.stringify({ users: elements(10_001) })), 401, 'UNAUTHORIZED');
      const bank = await json('/psd2/auth/3.0/authenticate', JSON.stringify({ end_user_ip: PSU_IP, extra: elements(10_001) }), { 'PSU-IP-Address': PSU_IP });
      expect(bank.status).toBe(401);
    });

    it('on a bank route with its credentials (POST /psd2/auth/3.0/authenticate): 400 naming the place (contract §2)', async () => {
      const res = await json('/psd2/auth/3.0/authenticate', JSON.stringify({ end_user_ip: PSU_IP, scopes: 'AIS', extra: elements(10_001) }), { 'X-PSD2-CLIENT-TEST-CERT': cert, 'PSU-IP-Address': PSU_IP });
      expectRefused(res, 'extra has 10001 elements (at most 10000)');
    });

    it('JSON is UTF-8 (RFC 8259 §8.1): a body sent as UTF-16 is refused naming its charset, unread (contract §2)', async () => {
      const res = await t.http.post('/sandbox/eid/open').set('Content-Type', 'application/json; charset=utf-16le').send(Buffer.from(membersText(1001), 'utf16le'));
      expectRefused(res, 'charset "utf-16le"');
    });

    it('under a sandbox\'s prefix too (contract §13)', async () => {
      const sandbox = (await t.http.post('/sandboxes').set(admin).send({ name: 'bounded' }).expect(201)).body as { sandbox_id: string };
      expectRefused(await json(`/sandboxes/${sandbox.sandbox_id}/sandbox/eid/open`, membersText(1001)), 'the body has 1001 members');
    });
  });

  describe('the token endpoints answer it in their RFC 6749 shape: 400 invalid_request (contract §2 token table)', () => {
    const ENDPOINTS = [
      { path: '/psd2/auth/1.0/token', credentials: (): Record<string, string> => ({ 'X-PSD2-CLIENT-TEST-CERT': cert, 'PSU-IP-Address': PSU_IP }) },
      { path: '/api/auth/1.0/token', credentials: (): Record<string, string> => ({ Authorization: `Bearer ${partnerKey}` }) },
    ];

    it.each(ENDPOINTS)('$path: 120 000 fields as JSON, an array of 10 001 elements, 33 levels', async ({ path, credentials }) => {
      const cases: Array<[string, string]> = [
        [membersText(120_000), 'the body has 120000 members'],
        [JSON.stringify({ grant_type: 'client_credentials', x: elements(10_001) }), 'x has 10001 elements'],
        [nestedText(33), 'deeper than 32 levels'],
      ];
      for (const [body, says] of cases) {
        const res = await t.http.post(path).set(credentials()).set('Content-Type', 'application/json').send(body);
        expectOAuthError(res, 400, 'invalid_request');
        expect(res.body.error_description).toContain(says);
        expectSmallAnswer(res);
      }
    });

    it.each(ENDPOINTS)('$path: a form of 120 000 parameters in under 1 MB, or one parameter 1 001 times, is refused unparsed', async ({ path, credentials }) => {
      const many = Array.from({ length: 120_000 }, (_, i) => `${i.toString(36)}=`).join('&');
      expect(Buffer.byteLength(many)).toBeLessThan(ONE_MB);
      for (const form of [many, Array.from({ length: 1001 }, () => 'x=1').join('&')]) {
        const res = await t.http.post(path).set(credentials()).type('form').send(form);
        expectOAuthError(res, 400, 'invalid_request');
        expect(res.body.error_description).toBe('The form body has more than 1000 parameters.');
        expectSmallAnswer(res);
      }
    });
  });

  describe('a body over 64 KB is parsed a slice at a time, with JSON.parse\'s verdict', () => {
    it('a valid fixture of 100 users and 200 accounts is seeded whole (contract §8)', async () => {
      const long = (n: number) => 'N'.repeat(200 - String(n).length) + n;
      const users = Array.from({ length: 100 }, (_, i) => ({
        personal_number: newPersonalNumber(),
        name: long(i),
        kyc_completed: true,
        accounts: [0, 1].map((j) => ({ name: long(j), currency: 'SEK', balance: 100 + j })),
      }));
      const body = JSON.stringify({ users });
      expect(Buffer.byteLength(body)).toBeGreaterThan(64 * 1024);
      const seeded = await json('/admin/seed', body, admin).expect(200);
      expect(seeded.body.users).toHaveLength(100);
      const last = (await t.admin.get(`/admin/users/${users[99].personal_number}`).expect(200)).body as { name: string; accounts: Array<{ balance: number }> };
      expect(last.name).toBe(long(99));
      expect(last.accounts.map((a) => a.balance).sort()).toEqual([100, 101]);
    });

    it('its fields are read as JSON.parse reads them, and text that is not JSON is 400 saying so', async () => {
      expectRefused(await json('/sandbox/eid/open', JSON.stringify({ token: 't'.repeat(100_000) })), 'token must be shorter than or equal to 200 characters');
      expectRefused(await json('/sandbox/eid/open', `{"token":"x","a":[${'"0123456789",'.repeat(8000)}}`), 'The request body is not valid JSON');
    });
  });

  describe('every message names at most 10 fields and counts the rest; no answer over 16 KB (contract §2)', () => {
    it('999 unknown fields: the first 10 named, "… and 989 more"', async () => {
      const message = expectRefused(await json('/sandbox/eid/open', JSON.stringify({ token: 'x', ...members(999) })), 'property 0 should not exist');
      expect(message).toMatch(/; … and 989 more$/);
      expect(message.match(/should not exist/g)).toHaveLength(10);
    });

    it('unknown fields holding 250 000 objects are refused by their names alone (their values are never read)', async () => {
      const body = JSON.stringify(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, elements(10_000)])));
      expect(Buffer.byteLength(body)).toBeLessThan(ONE_MB);
      const message = expectRefused(await json('/sandbox/eid/open', body), 'property f0 should not exist');
      expect(message).toMatch(/; … and 16 more$/);
    });

    it('a fixture of 1 000 users with 20 accounts each, all empty: the first 10 problems, and the count of the 63 000 in all', async () => {
      const fixture = { users: Array.from({ length: 1000 }, () => ({ accounts: elements(20) })) };
      const message = expectRefused(await json('/admin/seed', JSON.stringify(fixture), admin), 'users.0.personal_number is required');
      expect(message).toMatch(/^users\.0\.personal_number is required; users\.0\.accounts\.0\.name is required; .*; … and 62990 more$/);
    });

    it('a field named by a key of 200 000 characters is cut, and the answer stays within 16 KB', async () => {
      const key = 'k'.repeat(200_000);
      const message = expectRefused(await json('/sandbox/eid/open', JSON.stringify({ token: 'x', [key]: 1 })), `property ${'k'.repeat(100)}`);
      expect(message.length).toBeLessThan(1100);
    });

    it('a path of 14 000 characters is cut in instance, and the answer stays within 16 KB', async () => {
      const res = await t.http.get(`/${'p'.repeat(14_000)}`);
      expect(res.status).toBe(404);
      expectSmallAnswer(res);
      expect(res.body.instance).toBe(`/${'p'.repeat(2047)}…`);
    });
  });

  describe('query strings', () => {
    const personalNumber = newPersonalNumber();

    it('more than 1 000 parameters: 400 naming the query, on an open route and an admin route (contract §2)', async () => {
      const many = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
      expectRefused(await t.http.get(`/sandbox/eid/operations?personal_number=${personalNumber}&${many}`), 'The query has more than 1000 parameters');
      expectRefused(await t.http.get(`/admin/requests?${many}`).set(admin), 'The query has more than 1000 parameters');
    });

    it('999 unknown parameters: the first 10 named, "… and 989 more", a small answer', async () => {
      const many = Array.from({ length: 999 }, (_, i) => `p${i}=1`).join('&');
      const message = expectRefused(await t.http.get(`/sandbox/eid/operations?personal_number=${personalNumber}&${many}`), 'property p0 should not exist');
      expect(message).toMatch(/; … and 989 more$/);
    });

    it('one parameter given 400 times (as many as 16 KB of request line carry) is one wrong value, named once', async () => {
      const repeated = Array.from({ length: 400 }, () => `personal_number=${personalNumber}`).join('&');
      const message = expectRefused(await t.http.get(`/sandbox/eid/operations?${repeated}`), 'personal_number');
      expect(message).not.toContain('more');
    });
  });

  describe('the journal keeps the first 4 KB of a large body without reading all of it (contract §14)', () => {
    /** The journal entry of a request, once written (it is built a turn of the event loop after the answer). */
    async function entryOf(requestId: string): Promise<{ request: { body: unknown; body_truncated?: boolean } }> {
      let found: Response | undefined;
      for (let attempt = 0; attempt < 50 && found?.status !== 200; attempt++) {
        await new Promise((resolve) => setImmediate(resolve));
        await t.app.get(JournalWriter).flush();
        found = await t.http.get(`/admin/requests/${requestId}`).set(admin);
      }
      return found!.body as { request: { body: unknown; body_truncated?: boolean } };
    }

    it.each([
      ['parsed a slice at a time and refused by its unknown field', JSON.stringify({ f: Array.from({ length: 25 }, () => elements(10_000)) })],
      ['refused unparsed for its 1 001 members', JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, 'v'.repeat(20)])))],
    ])('a body %s is recorded cut to its first 4 KB, with body_truncated', async (_, body) => {
      const requestId = `bounded-${Date.now()}-${body.length}`;
      await json('/sandbox/eid/open', body, { 'X-Request-Id': requestId }).expect(400);
      const entry = await entryOf(requestId);
      expect(entry.request.body_truncated).toBe(true);
      expect(typeof entry.request.body).toBe('string');
      expect(body.startsWith(entry.request.body as string)).toBe(true);
      expect(Buffer.byteLength(entry.request.body as string)).toBeGreaterThan(4000);
      expect(Buffer.byteLength(entry.request.body as string)).toBeLessThanOrEqual(4096);
    });
  });
});
