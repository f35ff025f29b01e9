import { randomBytes } from 'node:crypto';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server as HttpServer } from 'node:http';
import pg from 'pg';
import { createApp } from '../../src/app.factory.js';
import { ManualClock, type Clock } from '../../src/common/time/clock.js';
import { loadConfig, type AppConfig } from '../../src/config/env.js';
import { AdminToken } from '../../src/common/admin/admin-token.js';

/** How long a test app's close may wait for its connections before they are cut. */
const CLOSE_GRACE_MS = 5000;

/** One fixed key per tier, given to every test app through API_KEYS. */
export const KEYS = {
  free: 'sk_test_free_000000001',
  hobby: 'sk_test_hobby_00000001',
  pro: 'sk_test_pro_0000000001',
  sharp: 'sk_test_sharp_00000001',
  enterprise: 'sk_test_ent_0000000001',
} as const;
export type TestTier = keyof typeof KEYS;

/** True when the suite runs against the real PostgreSQL and Redis (the services-backed CI pass). */
export const SERVICES = Boolean(process.env.TEST_DATABASE_URL);

export interface CallOptions {
  key?: string;
  via?: 'header' | 'bearer' | 'query';
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  clock: Clock;
  adminToken: string;
  call<T = any>(path: string, opts?: CallOptions): Promise<CallResult<T>>;
  /** A fresh key of a tier (its own rate-limit budget). */
  newKey(tier: TestTier): Promise<string>;
  /** Stops the app and drops its PostgreSQL schema (`keepStore`: leaves it for another app, e.g. a restart). */
  close(opts?: { keepStore?: boolean }): Promise<void>;
}

/** A unique schema / Redis prefix per suite so parallel suites on shared servers never see each other. */
export function isolationEnv(): Record<string, string> {
  const id = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const env: Record<string, string> = {};
  if (process.env.TEST_DATABASE_URL) {
    env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    env.DATABASE_SCHEMA = id;
  } else {
    env.EMBEDDED_IN_MEMORY = 'true';
  }
  if (process.env.TEST_REDIS_URL) {
    env.REDIS_URL = process.env.TEST_REDIS_URL;
    env.REDIS_PREFIX = `${id}:`;
  }
  return env;
}

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig(
    {
      PROVIDERS: 'none',
      SCHEDULERS: 'false',
      LOG_LEVEL: 'silent',
      DATA_DIR: `/tmp/odds-test-${process.pid}`,
      API_KEYS: Object.entries(KEYS)
        .map(([t, k]) => `${t}:${k}`)
        .join(','),
      ...isolationEnv(),
      ...env,
    },
    'test',
  );
}

export async function call<T = any>(base: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let url = path.startsWith('http') ? path : `${base}/api/v1${path}`;
  if (opts.key && (opts.via ?? 'header') === 'header') headers['X-API-Key'] = opts.key;
  if (opts.key && opts.via === 'bearer') headers.Authorization = `Bearer ${opts.key}`;
  if (opts.key && opts.via === 'query') url += `${url.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(opts.key)}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: opts.method ?? 'GET', headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * Starts the whole application on a random port (real HTTP), with a manual clock unless told otherwise.
 * `opportunityTypes`: the opportunity type modules to run instead of the service's own list.
 */
export async function startTestApp(
  opts: { env?: Record<string, string>; clock?: Clock; config?: AppConfig; opportunityTypes?: readonly Type[] } = {},
): Promise<TestApp> {
  const clock = opts.clock ?? new ManualClock(Date.now());
  const config = opts.config ?? testConfig(opts.env);
  const app = await createApp(config, { clock, opportunityTypes: opts.opportunityTypes });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    config,
    clock,
    adminToken: app.get(AdminToken).value,
    call: (path, o) => call(url, path, o),
    newKey: async (tier) => {
      const r = await call(url, '/admin/keys', { method: 'POST', body: { tier }, headers: { 'X-Admin-Token': app.get(AdminToken).value } });
      return (r.json as { data: { key: string } }).data.key;
    },
    close: async (opts = {}) => {
      // The application first: its sessions (the leadership lock, a write in flight) end with it, so the next
      // suite's instance can lead at once, and nothing of ours holds a lock the schema's drop would wait for.
      // A hostile test's half-sent request keeps its socket, and so the server's close, until Node's headers timeout
      // (60 s). The suite is over: connections still open after a grace for the app's own shutdown frames are cut.
      const server = app.getHttpServer() as HttpServer;
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      cut.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      if (!opts.keepStore && config.databaseUrl && config.databaseSchema !== 'public') await dropSchema(config);
    },
  };
}

/** Drops a test schema on a session of its own, waiting at most 5 s for locks: a schema left behind is harmless. */
async function dropSchema(config: AppConfig): Promise<void> {
  const c = new pg.Client({ connectionString: config.databaseUrl!, connectionTimeoutMillis: 5000 });
  try {
    await c.connect();
    await c.query(`SET lock_timeout = '5s'`);
    await c.query(`DROP SCHEMA IF EXISTS "${config.databaseSchema}" CASCADE`);
  } catch {
    /* left in the test database: each test app has a schema of its own */
  } finally {
    await c.end().catch(() => undefined);
  }
}
