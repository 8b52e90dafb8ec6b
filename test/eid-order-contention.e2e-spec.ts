import { DataSource } from 'typeorm';
import { DomainError, STATUS_OF_KIND } from '@app/common';
import { EidOrderService } from '@app/eid';
import { newUser } from './support/psd2';
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
});
