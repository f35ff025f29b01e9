import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { RedisService } from '../../common/redis/redis.service.js';
import { ManualClock } from '../../common/time/clock.js';
import type { AppConfig } from '../../config/env.js';
import type { BoardService } from '../board/board.service.js';
import { HealthService } from './health.service.js';

/** A database whose queries answer at once until `hang` is set, then never (a session lent to a long write). */
function setUp(databaseUrl: string | null) {
  const db = { hang: false };
  const answer = <T>(v: T) => (db.hang ? new Promise<T>(() => undefined) : Promise.resolve(v));
  const ds = { query: () => answer([{ '?column?': 1 }]), showMigrations: () => answer(false), migrations: [{}, {}] };
  const health = new HealthService(
    ds as unknown as DataSource,
    { enabled: false } as RedisService,
    new ManualClock(0),
    { databaseUrl, version: '1.0.0' } as unknown as AppConfig,
    { dataCheck: () => ({ status: 'ok', message: 'fresh' }) } as unknown as BoardService,
  );
  health.dbTimeoutMs = 20;
  return { db, health };
}

describe('GET /health while the database is slow to answer', () => {
  it('the embedded store is busy, not down: degraded (200), the schema as last checked', async () => {
    const { db, health } = setUp(null);
    expect((await health.report()).status).toBe('ok');
    db.hang = true;
    const r = await health.report();
    expect(r.status).toBe('degraded');
    expect(r.checks.database).toMatchObject({ status: 'degraded', message: expect.stringContaining('busy') });
    expect(r.checks.schema).toEqual({ status: 'ok', message: '2 migrations applied (as last checked: the database is busy)' });
  });

  it('the embedded store busy before any schema check: the schema says it was not checked yet', async () => {
    const { db, health } = setUp(null);
    db.hang = true;
    expect((await health.report()).checks.schema).toEqual({ status: 'degraded', message: 'not checked yet: the database is busy' });
  });

  it('a PostgreSQL server that does not answer is down (503)', async () => {
    const { db, health } = setUp('postgres://db/test');
    db.hang = true;
    const r = await health.report();
    expect(r.status).toBe('down');
    expect(r.checks.database.message).toBe('database unreachable: timed out after 20 ms');
  });
});
