import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import type { ApiError } from '../../src/common/http/api-error.js';
import { ApiKeysService } from '../../src/modules/accounts/api-keys.service.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Transactions stay their caller's own, on the embedded store (one caller at a time) as on PostgreSQL (a session
 * per caller): another caller's write made while a transaction is open survives its rollback, and the account's
 * row lock really serialises key creation at the account's limit.
 */
describe('the store: transactions are their caller’s own', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    ds = t.app.get(DataSource);
    await ds.query(`CREATE TABLE concurrency_probe (id text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await t.close();
  });

  const ids = async (): Promise<string[]> =>
    ((await ds.query(`SELECT id FROM concurrency_probe ORDER BY id`)) as Array<{ id: string }>).map((r) => r.id);

  it('a rollback takes back its own writes only: a write made meanwhile by another caller survives', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));

    const rolledBack = ds.transaction(async (m) => {
      await m.query(`INSERT INTO concurrency_probe (id) VALUES ('in-transaction')`);
      entered();
      await held;
      throw new Error('rolled back on purpose');
    });
    await inside;
    // Another caller writes while the transaction is open (it may wait for it on a store that takes one at a time).
    const other = ds.query(`INSERT INTO concurrency_probe (id) VALUES ('beside')`);
    await new Promise((r) => setTimeout(r, 50));
    finish();
    await expect(rolledBack).rejects.toThrow('rolled back on purpose');
    await other;
    expect(await ids()).toEqual(['beside']);
  });

  it('a transaction that commits keeps its writes and sees only committed work of others', async () => {
    await ds.query(`DELETE FROM concurrency_probe`);
    await ds.transaction(async (m) => {
      await m.query(`INSERT INTO concurrency_probe (id) VALUES ('committed')`);
    });
    expect(await ids()).toEqual(['committed']);
  });

  it("concurrent key creation at the account's limit: exactly the limit is created, the rest refused with 403", async () => {
    const made = await t.call('/admin/keys', { method: 'POST', body: { tier: 'enterprise' }, headers: { 'X-Admin-Token': t.adminToken } });
    expect(made.status).toBe(201);
    const { key, account_id } = made.json.data as { key: string; account_id: string };
    const limit = 4;
    const set = await t.call(`/admin/accounts/${account_id}/max-keys`, {
      method: 'POST',
      body: { max_keys: limit },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(set.status).toBe(200);

    // Called together in-process (HTTP requests arrive one by one and may not overlap), so that every call's
    // transaction is open at once: only the account row's lock keeps them from all counting the same keys.
    const keys = t.app.get(ApiKeysService);
    const tries = 16;
    const outcomes = await Promise.allSettled(Array.from({ length: tries }, (_, i) => keys.createForAccount(account_id, `k${i}`, 'test')));
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as ApiError);
    expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBe(limit - 1);
    expect(refused.length).toBe(tries - (limit - 1));
    for (const e of refused) expect(e).toMatchObject({ code: 'tier_restricted' });

    // Over HTTP too, where the account is now at its limit.
    const more = await Promise.all(Array.from({ length: 4 }, () => t.call('/account/keys', { key, method: 'POST', body: {} })));
    for (const a of more) expect(a.json.error).toMatchObject({ code: 'tier_restricted', max_keys: limit });

    const listed = await t.call('/account/keys', { key });
    expect(listed.status).toBe(200);
    expect(listed.json.data).toHaveLength(limit);
  });
});
