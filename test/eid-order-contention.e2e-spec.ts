import { DataSource } from 'typeorm';
import { DomainError, STATUS_OF_KIND } from '@app/common';
import { EidOrderService } from '@app/eid';
import { expectOAuthError, newUser, Psd2Client } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { createTestApp, TestApp } from './support/test-app';

/**
 * EidOrderService saves with a version check and reads again when another request changed the order
 * in between (issue 14 item 1). A trigger drops every save of one order, as a concurrent writer that
 * always wins would: the service must not answer a state the row does not hold.
 */
describe('eid order changes under contention (issue 14, contract §2, §4)', () => {
  let t: TestApp;
  let db: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(DataSource);
    await db.query(`CREATE TABLE test_contended_order (id uuid PRIMARY KEY)`);
    await db.query(`
      CREATE FUNCTION test_lose_save() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM test_contended_order WHERE id = OLD.id) THEN RETURN NULL; END IF;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER test_lose_save BEFORE UPDATE ON eid_order FOR EACH ROW EXECUTE FUNCTION test_lose_save()`);
  });
  afterAll(async () => {
    await db.query('DROP TRIGGER test_lose_save ON eid_order');
    await t.close();
  });

  it('answers 503 CONCURRENT_CHANGES, not a state the row does not hold, when every optimistic save of an order lost (issue 14, contract §2)', async () => {
    const orders = t.get(EidOrderService);
    const user = await newUser(t, { eid: 'MANUAL' });
    const order = await orders.start({ kind: 'authentication', channel: 'app', personalNumber: user, requestedBy: 'Test TPP' });
    await db.query('INSERT INTO test_contended_order (id) VALUES ($1)', [order.id]);

    const error: unknown = await orders.cancel(order.id).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'CONCURRENT_CHANGES', headers: { 'Retry-After': '1' } });
    expect(STATUS_OF_KIND[(error as DomainError).kind]).toBe(503);
    const [row] = await db.query<Array<{ status: string; hint_code: string }>>('SELECT status, hint_code FROM eid_order WHERE id = $1', [order.id]);
    expect(row).toEqual({ status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });

    // Once the other writer lets go, the same call goes through.
    await db.query('DELETE FROM test_contended_order WHERE id = $1', [order.id]);
    expect(await orders.cancel(order.id)).toMatchObject({ status: 'FAILED', hintCode: 'CANCELLED' });
  });

  it('a simulator action that finds the order as it would leave it (opened again, the same hint, a call confirmed twice) writes nothing: 204 while every save would lose (contract §4, §2)', async () => {
    const orders = t.get(EidOrderService);
    const act = (id: string, action: string, body?: object) => t.http.post(`/sandbox/eid/operations/${id}/${action}`).send(body);
    const versionOf = async (id: string) => (await db.query<Array<{ version: number }>>('SELECT version FROM eid_order WHERE id = $1', [id]))[0].version;
    const user = await newUser(t, { eid: 'MANUAL' });
    const chosen = await newUser(t, { eid: 'MANUAL' });

    const app = await orders.start({ kind: 'authentication', channel: 'app', personalNumber: user, requestedBy: 'Test TPP' });
    await act(app.id, 'open', { personal_number: chosen }).expect(204);
    const phone = await orders.start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test partner' });
    await act(phone.id, 'confirm-call').expect(204);
    const versions = [await versionOf(app.id), await versionOf(phone.id)];
    await db.query('INSERT INTO test_contended_order (id) VALUES ($1), ($2)', [app.id, phone.id]);

    await act(app.id, 'open').expect(204);
    await act(app.id, 'open', { personal_number: chosen }).expect(204);
    await act(app.id, 'hint', { hint_code: 'USER_SIGN' }).expect(204);
    await act(phone.id, 'confirm-call').expect(204);
    await act(phone.id, 'open').expect(204);
    expect([await versionOf(app.id), await versionOf(phone.id)]).toEqual(versions);
    expect(await orders.get(app.id)).toMatchObject({ status: 'PENDING', hintCode: 'USER_SIGN', personalNumber: chosen });

    // A real change is still saved (the first test shows it losing to a concurrent writer).
    await db.query('DELETE FROM test_contended_order WHERE id = ANY($1)', [[app.id, phone.id]]);
    await act(app.id, 'open', { personal_number: user }).expect(204);
    expect(await versionOf(app.id)).toBe(versions[0] + 1);
    expect(await orders.get(app.id)).toMatchObject({ personalNumber: user });
  });

  it('answers a contended order over HTTP as the document says: 503 CONCURRENT_CHANGES with Retry-After: 1 at status, cancel and the simulator, temporarily_unavailable at the token endpoint (contract §1, §2)', async () => {
    const tpp = await Psd2Client.create(t);
    const user = await newUser(t, { eid: 'MANUAL' });
    const { pendingCode } = await tpp.pendingCode({ user });
    const [{ id: orderId }] = await db.query<Array<{ id: string }>>('SELECT id FROM eid_order WHERE personal_number = $1', [user]);
    await db.query('INSERT INTO test_contended_order (id) VALUES ($1)', [orderId]);
    const expectContended = (res: { status: number; headers: Record<string, string>; body: { reason?: { code?: string } } }) => {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.reason?.code).toBe('CONCURRENT_CHANGES');
    };

    expectContended(await tpp.cancel(pendingCode));
    expectContended(await t.http.post(`/sandbox/eid/operations/${orderId}/complete`));
    // Past the 30 s start rule, reading the order closes it (START_FAILED): a change that loses too.
    await t.clock.advance(31);
    expectContended(await tpp.status(pendingCode));
    const exchange = await tpp.exchange(pendingCode);
    expectOAuthError(exchange, 503, 'temporarily_unavailable');
    expect(exchange.headers['retry-after']).toBe('1');

    // Each answer was checked against /openapi.json by the harness; nothing was changed.
    const [row] = await db.query<Array<{ status: string }>>('SELECT status FROM eid_order WHERE id = $1', [orderId]);
    expect(row.status).toBe('PENDING');
    await db.query('DELETE FROM test_contended_order WHERE id = $1', [orderId]);
    expect((await tpp.status(pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'FAILED', hint_code: 'START_FAILED' });
  });
});

describeOnServer('parallel identical eid simulator actions on the PostgreSQL server (contract §4, §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const parallel = (times: number, request: () => PromiseLike<{ status: number }>) => Promise.all(Array.from({ length: times }, request));

  it('12 parallel opens of one order all answer 204, whether it was open already or not: an open that changes nothing writes nothing (contract §4, §2)', async () => {
    const orders = t.get(EidOrderService);
    const user = await newUser(t, { eid: 'MANUAL' });
    const open = (id: string) => () => t.http.post(`/sandbox/eid/operations/${id}/open`).send({ personal_number: user });

    const fresh = await orders.start({ kind: 'authentication', channel: 'app', personalNumber: user, requestedBy: 'Test TPP' });
    expect((await parallel(12, open(fresh.id))).map((res) => res.status)).toEqual(Array(12).fill(204));

    const alreadyOpen = await orders.start({ kind: 'authentication', channel: 'app', personalNumber: user, requestedBy: 'Test TPP' });
    await open(alreadyOpen.id)().expect(204);
    expect((await parallel(12, open(alreadyOpen.id))).map((res) => res.status)).toEqual(Array(12).fill(204));
    expect(await orders.get(alreadyOpen.id)).toMatchObject({ status: 'PENDING', hintCode: 'USER_SIGN', personalNumber: user });
  });

  it('12 parallel identical hints and call confirmations all answer 204 (contract §4, §2)', async () => {
    const orders = t.get(EidOrderService);
    const user = await newUser(t, { eid: 'MANUAL' });
    const act = (id: string, action: string, body?: object) => () => t.http.post(`/sandbox/eid/operations/${id}/${action}`).send(body);

    const app = await orders.start({ kind: 'authentication', channel: 'app', personalNumber: user, requestedBy: 'Test TPP' });
    expect((await parallel(12, act(app.id, 'hint', { hint_code: 'STARTED' }))).map((res) => res.status)).toEqual(Array(12).fill(204));
    const phone = await orders.start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test partner' });
    expect((await parallel(12, act(phone.id, 'confirm-call'))).map((res) => res.status)).toEqual(Array(12).fill(204));
    expect(await orders.get(phone.id)).toMatchObject({ status: 'PENDING', hintCode: 'USER_SIGN' });
  });
});
