import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, types, type PGliteOptions } from '@electric-sql/pglite';

/** How long a caller waits for the embedded store before its query fails (a caller that never gives it back). */
export const EMBEDDED_LEASE_TIMEOUT_MS = 60_000;

type Done = (err?: unknown) => void;
type ConnectCallback = (err: Error | null, lease: EmbeddedLease | null, release: Done) => void;
interface Result {
  rows: unknown[];
  rowCount?: number;
  command?: string;
}

/**
 * The embedded store's driver for TypeORM (in place of `pg`): one PGlite database, lent to one caller at a time.
 *
 * PGlite is a single PostgreSQL session, and a session has one transaction: were it handed to every caller at
 * once, a transaction one caller opened would take in every other caller's statements until it ended (rolled
 * back with it), and a row lock (`SELECT … FOR UPDATE`) would never make anyone wait. So each TypeORM query
 * runner takes the session for itself (an exclusive lease, as a pool lends a connection) and gives it back on
 * release; the others wait their turn, first come first served. PGlite runs one statement at a time anyway, so
 * nothing that could run in parallel is made to wait: only a caller's statements are no longer interleaved with
 * another's open transaction. A transaction a caller leaves open when it gives the session back is rolled back.
 */
export function embeddedDriver(options: PGliteOptions, leaseTimeoutMs = EMBEDDED_LEASE_TIMEOUT_MS): { Pool: new () => EmbeddedPool } {
  return {
    Pool: class extends EmbeddedPool {
      constructor() {
        super(options, leaseTimeoutMs);
      }
    },
  };
}

/**
 * PostgreSQL's memory settings for the embedded store. Its defaults (128 MB of shared buffers, 64 MB for
 * maintenance) are sized for a server of its own; here the buffers live in the service's own memory (PGlite's
 * WebAssembly heap, which never shrinks), and the tables a default start holds fit in a fraction of that. With
 * these, the embedded store costs about 60-140 MB less resident memory (README, "Memory").
 */
export const EMBEDDED_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=16MB', '-c', 'maintenance_work_mem=16MB', '-c', 'temp_buffers=4MB'],
];

/** Booleans as PostgreSQL's literals (TypeORM passes them as true/false, 1/0 or strings). */
const bool = (v: unknown): string => {
  if (v === true || v === 'true' || v === 1) return 'TRUE';
  if (v === false || v === 'false' || v === 0) return 'FALSE';
  return String(v);
};

/** The part of pg's Pool that TypeORM's PostgreSQL driver uses: `connect` (callback), `query`, `end`, `on('error')`. */
export class EmbeddedPool extends EventEmitter {
  private db: Promise<PGlite> | null = null;
  private holder: EmbeddedLease | null = null;
  private readonly waiting: Array<{ grant: (l: EmbeddedLease) => void; fail: (e: Error) => void }> = [];
  private ended = false;

  constructor(
    private readonly options: PGliteOptions,
    private readonly leaseTimeoutMs: number,
  ) {
    super();
  }

  /** The database, created on first use (a failed start is tried again by the next caller). */
  private open(): Promise<PGlite> {
    this.db ??= PGlite.create({
      startParams: [...EMBEDDED_START_PARAMS],
      ...this.options,
      serializers: { [types.BOOL]: bool, ...(this.options.serializers ?? {}) },
    }).catch((err: unknown) => {
      this.db = null;
      throw err;
    });
    return this.db;
  }

  /** An exclusive lease on the session, in turn: `release` gives it back. */
  connect(callback?: ConnectCallback): Promise<EmbeddedLease> | undefined {
    const leased = this.lease();
    if (!callback) return leased;
    leased.then(
      (l) => callback(null, l, (err) => l.release(err)),
      (err: Error) => callback(err, null, () => undefined),
    );
    return undefined;
  }

  /** One statement on a lease of its own. */
  async query(
    sql: string,
    params?: unknown[] | ((err: Error | null, r: Result | null) => void),
    cb?: (err: Error | null, r: Result | null) => void,
  ): Promise<Result> {
    if (typeof params === 'function') [cb, params] = [params, undefined];
    const l = await this.lease();
    try {
      const r = await l.query(sql, params);
      cb?.(null, r);
      return r;
    } catch (err) {
      cb?.(err as Error, null);
      throw err;
    } finally {
      l.release();
    }
  }

  /**
   * An error when the database's directory was deleted under the running service. PGlite is not asked then: a
   * statement that has to write there spins in its WebAssembly for good, which would block the process (no
   * request, no timer, no SIGTERM would run again). A stat per lease: statements come in batches.
   */
  private gone(): Error | null {
    const dir = this.options.dataDir;
    if (!dir || dir.includes('://') || existsSync(join(dir, 'PG_VERSION'))) return null;
    return new Error(
      `the embedded database's directory ${dir} was deleted while the service ran: nothing more can be stored (restart the service)`,
    );
  }

  private async lease(): Promise<EmbeddedLease> {
    if (this.ended) throw new Error('the embedded store is closed');
    const db = await this.open();
    // After open: a new directory holds PG_VERSION once PGlite has created the database in it.
    const gone = this.gone();
    if (gone) throw gone;
    if (!this.holder && this.waiting.length === 0) return (this.holder = new EmbeddedLease(db, (l) => this.returned(l)));
    return new Promise<EmbeddedLease>((resolve, reject) => {
      const entry = {
        grant: (l: EmbeddedLease) => {
          clearTimeout(timer);
          resolve(l);
        },
        fail: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      // Real time, whatever the application's clock says: a limit on waiting for the database.
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error(`the embedded store was held by another caller for ${this.leaseTimeoutMs / 1000} s`));
      }, this.leaseTimeoutMs);
      timer.unref();
      this.waiting.push(entry);
    });
  }

  /** A lease came back: a transaction it left open is rolled back, then the next caller in line gets the session. */
  private async returned(lease: EmbeddedLease): Promise<void> {
    if (this.holder !== lease) return;
    const db = await this.open().catch(() => null);
    if (db && !db.closed && db.isInTransaction() && !this.gone())
      await db.exec('ROLLBACK').catch((err: unknown) => this.emit('error', err));
    const next = this.waiting.shift();
    if (!next || !db) {
      this.holder = null;
      return;
    }
    this.holder = new EmbeddedLease(db, (l) => this.returned(l));
    next.grant(this.holder);
  }

  /** Closes the database (TypeORM has released its query runners first); callers still waiting are refused. */
  end(callback?: (err?: Error | null) => void): Promise<void> {
    this.ended = true;
    for (const w of this.waiting.splice(0)) w.fail(new Error('the embedded store is closed'));
    const closed = (async () => {
      const db = this.db ? await this.db.catch(() => null) : null;
      this.db = null;
      // Closing writes a checkpoint: with the directory gone, the database is dropped instead (see gone()).
      if (db && !db.closed && !this.gone()) await db.close();
    })();
    closed.then(
      () => callback?.(null),
      (err: Error) => callback?.(err),
    );
    return callback ? Promise.resolve() : closed;
  }
}

/** The session, lent to one caller until it calls `release` (what TypeORM's query runner holds as its connection). */
export class EmbeddedLease extends EventEmitter {
  private released = false;

  constructor(
    private readonly db: PGlite,
    private readonly giveBack: (l: EmbeddedLease) => Promise<void>,
  ) {
    super();
  }

  /** With parameters one statement (extended protocol); without, a script whose last statement's result is returned. */
  async query(sql: string, params?: unknown[]): Promise<Result> {
    if (this.released) throw new Error('query on an embedded store lease already given back');
    if (params && params.length > 0) return this.db.query(sql, params);
    const results = await this.db.exec(sql);
    return results[results.length - 1] ?? { rows: [], rowCount: 0 };
  }

  release(_err?: unknown): void {
    if (this.released) return;
    this.released = true;
    void this.giveBack(this);
  }
}
