import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import pg from 'pg';
import { Clock, type Timer } from '../../common/time/clock.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';

/** The advisory lock that makes one ingesting worker active among several. */
export const LEADER_LOCK = 727_002;
export const LEADER_POLL_MS = 2000;

/**
 * How long PostgreSQL keeps the leader's session (and so its lock) once it hears nothing on it. The session is
 * used every poll (2 s); a leader whose host died silently or whose network went dark sends nothing more, the
 * server ends the session after this long, and a standby takes the lock at its next poll: within
 * LEADER_SESSION_IDLE_MS + LEADER_POLL_MS of the last word.
 */
export const LEADER_SESSION_IDLE_MS = 8000;

/**
 * The leader's session: dead peers are found from both ends. The server ends it when it is idle too long
 * (`idle_session_timeout`) or when TCP keep-alives or unacknowledged data say the client is gone; the client
 * gives up on a query after 5 s and probes the server with TCP keep-alives, then reconnects.
 */
export function leaderSessionConfig(databaseUrl: string): pg.ClientConfig {
  return {
    connectionString: databaseUrl,
    connectionTimeoutMillis: 2000,
    query_timeout: 5000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 5000,
    options: [
      `-c idle_session_timeout=${LEADER_SESSION_IDLE_MS}`,
      '-c tcp_keepalives_idle=5',
      '-c tcp_keepalives_interval=2',
      '-c tcp_keepalives_count=3',
      `-c tcp_user_timeout=${LEADER_SESSION_IDLE_MS}`,
    ].join(' '),
  };
}

/**
 * Which instance ingests. With the embedded store there is one process: it leads unless it is an api
 * instance. With PostgreSQL, every `worker` (and `all`) instance tries a session-level advisory lock on a
 * dedicated connection every 2 s; the holder is the active worker, the others stand by as replicas. When the
 * active one dies its session ends, the lock is released, and a standby takes over within a poll interval.
 * If the database itself goes away, the active worker keeps ingesting (its writes are buffered) and retakes the
 * lock when the database returns; a standby that reconnects waits a little so it does not snatch it first.
 * A leader that goes silent (its host dead, its network dark) loses its session on the server's side within
 * LEADER_SESSION_IDLE_MS, and with it the lock.
 */
@Injectable()
export class Leadership implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('leadership');
  private leader = false;
  private client: pg.Client | null = null;
  private timer: Timer | null = null;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private stopped = false;
  /** The active worker lost its database session: it keeps ingesting (prices are buffered) until it can retake the lock. */
  private holdsLock = false;
  private connectedAt = 0;
  since: number | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly registry: SchedulerRegistry,
  ) {
    this.bootedAt = clock.now();
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Called with true when this instance becomes the active worker and false when it stops being it. */
  onChange(fn: (leader: boolean) => void): () => void {
    this.listeners.add(fn);
    if (this.leader) fn(true);
    return () => this.listeners.delete(fn);
  }

  private set(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.since = leader ? this.clock.now() : null;
    this.logger.log({
      msg: leader ? 'this instance is the active worker' : 'this instance is no longer the active worker',
      role: this.config.role,
    });
    for (const fn of this.listeners) {
      try {
        fn(leader);
      } catch (err) {
        this.logger.error({ msg: 'leadership listener failed', error: (err as Error).message });
      }
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.role === 'api') return;
    if (!this.config.databaseUrl) {
      this.set(true);
      return;
    }
    await this.attempt();
    // On the clock like every job, but not through Jobs (which asks this service who leads), and regardless of
    // SCHEDULERS: without it a standby never takes over.
    this.timer = this.clock.setInterval(() => this.attempt(), LEADER_POLL_MS);
    this.registry.addInterval('cluster:leadership', this.timer);
  }

  /** One attempt at a time (a manual clock moved far runs many polls at once; a slow connect overlaps the next). */
  private attempt(): Promise<void> {
    this.attempting ??= this.attemptOnce().finally(() => (this.attempting = null));
    return this.attempting;
  }
  private attempting: Promise<void> | null = null;

  private async attemptOnce(): Promise<void> {
    if (this.stopped) return;
    try {
      if (!this.client) {
        // Our previous session may still hold the lock while it closes: a new session asking for it meanwhile
        // would be refused and this worker would step down with nobody to take over.
        await this.previousClosed;
        const c = new pg.Client(leaderSessionConfig(this.config.databaseUrl!));
        c.on('error', () => this.lost());
        c.on('end', () => this.lost());
        await c.connect();
        this.client = c;
        this.connectedAt = this.clock.now();
      }
      if (this.leader && this.holdsLock) {
        await this.client.query('SELECT 1');
        return;
      }
      // A standby that just reconnected gives the active worker (which keeps running through an outage) a
      // head start to retake the lock.
      if (!this.leader && this.clock.now() - this.connectedAt < 2 * LEADER_POLL_MS && this.connectedAt > this.bootedAt + LEADER_POLL_MS)
        return;
      const r = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LEADER_LOCK]);
      if (r.rows[0]?.locked) {
        this.holdsLock = true;
        this.set(true);
      } else if (this.leader) {
        // Another worker took over while this one was cut off.
        this.set(false);
      }
    } catch {
      this.lost();
    }
  }

  private readonly bootedAt: number;
  /** Settles when the session lost last has closed (or after 2 s): a new one waits for it. */
  private previousClosed: Promise<void> = Promise.resolve();

  private lost(): void {
    const c = this.client;
    this.client = null;
    this.holdsLock = false;
    // A time limit on database I/O: real time, whatever the clock says (see Clock).
    if (c)
      this.previousClosed = Promise.race([c.end().catch(() => undefined), new Promise<void>((r) => setTimeout(r, 2000).unref())]).then(
        () => undefined,
      );
    // The active worker keeps going while the database is away; a standby simply stays standby.
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    const c = this.client;
    this.client = null;
    this.holdsLock = false;
    this.set(false);
    if (c) await c.end().catch(() => undefined);
  }
}
