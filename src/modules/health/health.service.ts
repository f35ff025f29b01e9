import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { Clock } from '../../common/time/clock.js';
import { BoardService } from '../board/board.service.js';

export interface Check {
  status: 'ok' | 'degraded' | 'down';
  latency_ms?: number;
  message?: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  version: string;
  timestamp: string;
  checks: { redis: Check; data: Check; schema: Check; database: Check; [name: string]: Check };
}

/** A time limit on a probe's I/O: real time, whatever the injected clock says (see Clock). */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

@Injectable()
export class HealthService {
  private readonly extra = new Map<string, () => Check>();
  /** How long a health query waits for the database. */
  dbTimeoutMs = 2000;

  constructor(
    private readonly ds: DataSource,
    private readonly redis: RedisService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly boards: BoardService,
  ) {}

  addCheck(name: string, fn: () => Check): void {
    this.extra.set(name, fn);
  }

  private async database(): Promise<Check> {
    const start = performance.now();
    try {
      await withTimeout(this.ds.query('SELECT 1'), this.dbTimeoutMs);
      return {
        status: 'ok',
        latency_ms: Math.round(performance.now() - start),
        message: this.config.databaseUrl ? 'postgresql' : 'embedded postgresql (pglite)',
      };
    } catch (err) {
      // The embedded store lives in this process: it cannot be unreachable, only busy (its one session lent to a
      // large write, such as the first market's). The instance serves reads from memory meanwhile.
      if (!this.config.databaseUrl && /timed out/.test((err as Error).message))
        return {
          status: 'degraded',
          latency_ms: Math.round(performance.now() - start),
          message: `embedded postgresql (pglite) busy: a query waited over ${this.dbTimeoutMs} ms for its turn (a large write in progress)`,
        };
      return {
        status: 'down',
        latency_ms: Math.round(performance.now() - start),
        message: `database unreachable: ${(err as Error).message}`,
      };
    }
  }

  /** The last schema check that could read the database (migrations do not change while the service runs). */
  private lastSchema: Check | null = null;

  private async schema(database: Check): Promise<Check> {
    if (database.status === 'degraded' && this.lastSchema)
      return { status: this.lastSchema.status, message: `${this.lastSchema.message} (as last checked: the database is busy)` };
    if (database.status === 'degraded') return { status: 'degraded', message: 'not checked yet: the database is busy' };
    if (database.status === 'down') return { status: 'down', message: 'cannot check the schema while the database is unreachable' };
    const now = await this.schemaNow();
    if (now.status !== 'down') this.lastSchema = now;
    return now;
  }

  private async schemaNow(): Promise<Check> {
    const start = performance.now();
    try {
      const pending = await withTimeout(this.ds.showMigrations(), this.dbTimeoutMs);
      return pending
        ? {
            status: 'degraded',
            latency_ms: Math.round(performance.now() - start),
            message: 'migrations pending: run npm run migration:run',
          }
        : { status: 'ok', latency_ms: Math.round(performance.now() - start), message: `${this.ds.migrations.length} migrations applied` };
    } catch (err) {
      return { status: 'down', message: `schema check failed: ${(err as Error).message}` };
    }
  }

  private async redisCheck(): Promise<Check> {
    if (!this.redis.enabled)
      return { status: 'ok', latency_ms: 0, message: 'in-process (no REDIS_URL): rate limits and events stay in this instance' };
    try {
      const ms = await withTimeout(this.redis.ping(), 1000);
      return { status: 'ok', latency_ms: Math.round(ms), message: 'redis' };
    } catch (err) {
      return {
        status: 'degraded',
        message: `redis unreachable (${(err as Error).message}); serving with per-instance rate limits and local events`,
      };
    }
  }

  /**
   * Readiness for a load balancer or an orchestrator: ready once the instance serves its reads (the `startup`
   * check is ok, or there is none). Faults of the database or Redis do not make an instance unready: it serves
   * reads from memory through them.
   */
  readiness(): { ready: boolean; startup: Check } {
    const startup = this.extra.get('startup')?.() ?? { status: 'ok', message: 'started' };
    return { ready: startup.status === 'ok', startup };
  }

  async report(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([this.database(), this.redisCheck()]);
    const schema = await this.schema(database);
    const data = this.boards.dataCheck();
    const checks: HealthReport['checks'] = { redis, data, schema, database };
    for (const [name, fn] of this.extra) checks[name] = fn();
    const all = Object.values(checks);
    const status = database.status === 'down' ? 'down' : all.some((c) => c.status !== 'ok') ? 'degraded' : 'ok';
    return { status, version: this.config.version, timestamp: this.clock.iso(), checks };
  }
}
