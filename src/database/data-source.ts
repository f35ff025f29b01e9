import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/env.js';
import { embeddedDriver } from './embedded-driver.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations.js';

export type StoreKind = 'postgres' | 'embedded';

export function storeKind(config: Pick<AppConfig, 'databaseUrl'>): StoreKind {
  return config.databaseUrl ? 'postgres' : 'embedded';
}

/**
 * PostgreSQL through pg when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR (lent to one caller at a
 * time: see embedded-driver.ts). Same entities, same migrations.
 */
export function createDataSource(config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'embeddedInMemory' | 'databaseSchema'>): DataSource {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    logging: false,
  };
  let options: DataSourceOptions;
  if (config.databaseUrl) {
    options = {
      ...common,
      url: config.databaseUrl,
      schema: config.databaseSchema,
      // A peer that dies silently is found from both ends: TCP keep-alives from the client and the server, a
      // client-side limit on every query, and the server ends a transaction left idle (its row locks with it).
      extra: {
        options: [
          `-c search_path=${config.databaseSchema}`,
          '-c tcp_keepalives_idle=10',
          '-c tcp_keepalives_interval=5',
          '-c tcp_keepalives_count=3',
          '-c idle_in_transaction_session_timeout=30000',
        ].join(' '),
        max: 10,
        connectionTimeoutMillis: 3000,
        idleTimeoutMillis: 30_000,
        query_timeout: 30_000,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      },
    };
  } else {
    let dataDir = 'memory://';
    if (!config.embeddedInMemory) {
      dataDir = join(config.dataDir, 'pglite');
      mkdirSync(dataDir, { recursive: true });
      seedFromTemplate(dataDir);
    }
    options = { ...common, driver: embeddedDriver({ dataDir }) } as DataSourceOptions;
  }
  return new DataSource(options);
}

/** The embedded database initialised and migrated at build time (scripts/dist.mjs), beside the compiled code. */
const TEMPLATE_DIR = fileURLToPath(new URL('../../pglite-template', import.meta.url));

/**
 * A new embedded database starts as a copy of the build's template (initdb and the migrations already run: a
 * copy takes a fraction of a second, initdb about 3 s), when the template was made by the PGlite installed now.
 * Migrations added since the build still run at start as usual.
 */
export function seedFromTemplate(dataDir: string, templateDir = TEMPLATE_DIR): boolean {
  if (existsSync(join(dataDir, 'PG_VERSION')) || readdirSync(dataDir).length > 0) return false;
  try {
    const made = readFileSync(join(templateDir, 'PGLITE_VERSION'), 'utf8').split('\n')[0];
    if (made !== pgliteVersion()) return false;
    cpSync(templateDir, dataDir, { recursive: true, filter: (src) => !src.endsWith('PGLITE_VERSION') });
    return true;
  } catch {
    return false;
  }
}

/** The installed PGlite's version (its package.json is not exported: found beside its entry point). */
export function pgliteVersion(): string | null {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const root = entry.slice(0, entry.lastIndexOf('/dist/'));
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

/** PostgreSQL advisory lock ids (the active worker's is in leadership.service.ts: 727_002). */
const MIGRATION_LOCK = 727_001;
export const KEY_BOOTSTRAP_LOCK = 727_003;

/** True for the embedded store: one process owns it, so there is no other instance to take turns with. */
export function isEmbedded(ds: DataSource): boolean {
  return !(ds.options as { url?: string }).url;
}

/**
 * Runs `fn` while holding a PostgreSQL advisory lock, so instances starting together take turns. On the embedded
 * store `fn` simply runs: it belongs to one process, and holding its session for the lock would leave `fn` none.
 */
export async function withAdvisoryLock<T>(ds: DataSource, lock: number, fn: () => Promise<T>): Promise<T> {
  if (isEmbedded(ds)) return fn();
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    await qr.query('SELECT pg_advisory_lock($1)', [lock]);
    return await fn();
  } finally {
    await qr.query('SELECT pg_advisory_unlock($1)', [lock]).catch(() => undefined);
    await qr.release();
  }
}

/** Runs pending migrations under an advisory lock, so instances starting together don't race. */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const schema = (ds.options as { schema?: string }).schema;
  if (schema && schema !== 'public') await ds.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  return withAdvisoryLock(ds, MIGRATION_LOCK, async () => (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name));
}
