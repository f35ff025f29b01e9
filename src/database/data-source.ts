import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import type { AppConfig } from '../config/env.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations.js';

export type StoreKind = 'postgres' | 'embedded';

export function storeKind(config: Pick<AppConfig, 'databaseUrl'>): StoreKind {
  return config.databaseUrl ? 'postgres' : 'embedded';
}

/** PostgreSQL through pg when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR. Same entities, same migrations. */
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
      extra: { options: `-c search_path=${config.databaseSchema}`, max: 10, connectionTimeoutMillis: 3000, idleTimeoutMillis: 30_000, query_timeout: 30_000 },
    };
  } else {
    let dataDir = 'memory://';
    if (!config.embeddedInMemory) {
      dataDir = join(config.dataDir, 'pglite');
      mkdirSync(dataDir, { recursive: true });
    }
    options = { ...common, driver: new PGliteDriver({ dataDir }).driver } as DataSourceOptions;
  }
  return new DataSource(options);
}

/** PostgreSQL advisory lock ids (the active worker's is in leadership.service.ts: 727_002). */
const MIGRATION_LOCK = 727_001;
export const KEY_BOOTSTRAP_LOCK = 727_003;

/** Runs `fn` while holding a PostgreSQL advisory lock, so instances starting together take turns. */
export async function withAdvisoryLock<T>(ds: DataSource, lock: number, fn: () => Promise<T>): Promise<T> {
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
