import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedDriver, type EmbeddedLease, type EmbeddedPool } from './embedded-driver.js';

const lease = (pool: EmbeddedPool) => pool.connect() as Promise<EmbeddedLease>;

describe('the embedded driver: one caller at a time', () => {
  let pool: EmbeddedPool;
  beforeAll(async () => {
    const { Pool } = embeddedDriver({ dataDir: 'memory://' }, 300);
    pool = new Pool();
    await pool.query('CREATE TABLE t (id int PRIMARY KEY, b boolean)');
  });
  afterAll(async () => {
    await pool.end();
  });

  it('lends the session to one caller; the next waits until it is given back, in order of asking', async () => {
    const first = await lease(pool);
    const order: string[] = [];
    const second = lease(pool).then((l) => (order.push('second'), l));
    const third = lease(pool).then((l) => (order.push('third'), l));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    first.release();
    (await second).release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
  });

  it('a lease given back cannot be used again', async () => {
    const l = await lease(pool);
    l.release();
    await expect(l.query('SELECT 1')).rejects.toThrow('already given back');
  });

  it('a transaction left open when the lease comes back is rolled back before the next caller', async () => {
    const l = await lease(pool);
    await l.query('BEGIN');
    await l.query('INSERT INTO t (id, b) VALUES ($1, $2)', [1, true]);
    l.release();
    const r = await pool.query('SELECT count(*)::int AS n FROM t');
    expect(r.rows).toEqual([{ n: 0 }]);
  });

  it('booleans as TypeORM passes them; a parameterless script answers with its last statement', async () => {
    await pool.query('INSERT INTO t (id, b) VALUES ($1, $2), ($3, $4)', [1, 1, 2, 'false']);
    const r = await pool.query('UPDATE t SET b = NOT b; SELECT id, b FROM t ORDER BY id');
    expect(r.rows).toEqual([
      { id: 1, b: false },
      { id: 2, b: true },
    ]);
    expect((await pool.query('UPDATE t SET b = true WHERE id = $1', [2])).rowCount).toBe(1);
  });

  it('a caller waits at most the lease timeout for a session that is never given back', async () => {
    const stuck = await lease(pool);
    await expect(lease(pool)).rejects.toThrow('held by another caller');
    stuck.release();
    (await lease(pool)).release();
  });
});

describe('the embedded driver: a database directory deleted while the service runs', () => {
  it('refuses every later statement with an error naming the directory, and closes without touching it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-gone-'));
    const { Pool } = embeddedDriver({ dataDir: dir }, 300);
    const pool = new Pool();
    await pool.query('CREATE TABLE t (id int PRIMARY KEY)');
    await pool.query('INSERT INTO t (id) VALUES ($1)', [1]);
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }]);
    rmSync(dir, { recursive: true, force: true });
    // PGlite itself would spin on the next write there and never give the process back (no timer, no signal).
    await expect(pool.query('INSERT INTO t (id) VALUES ($1)', [2])).rejects.toThrow(`directory ${dir} was deleted`);
    await expect(lease(pool)).rejects.toThrow('restart the service');
    await expect(pool.end()).resolves.toBeUndefined();
  });
});
