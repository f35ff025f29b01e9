import { resolve } from 'node:path';

/**
 * Typed configuration, read once from the environment and validated at boot.
 * A bad value fails start-up with a message naming the variable; nothing else reads process.env.
 */
export type Role = 'all' | 'api' | 'worker';

export interface AppConfig {
  port: number;
  host: string;
  /** PostgreSQL URL; undefined selects the embedded PGlite store under dataDir. */
  databaseUrl?: string;
  /** PostgreSQL schema for every table (default public); tests use one per suite. */
  databaseSchema: string;
  dataDir: string;
  /** Embedded store kept in memory only (tests). */
  embeddedInMemory: boolean;
  /**
   * How far the JavaScript heap may grow past what is live before a full collection, once the initial market
   * is in (V8's --heap-growing-percent); 0 (the default) leaves V8's own sizing. A bound saves memory and costs
   * throughput under load: more full collections.
   */
  heapGrowthPercent: number;
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so several deployments (or test suites) can share one Redis. */
  redisPrefix: string;
  /** "tier:key" pairs upserted at start. */
  apiKeys: Array<{ tier: string; key: string }>;
  role: Role;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  providers: string[];
  simulator: { seed: number; tickMs: number; events: number; days: number; activity: number };
  oddsApi: {
    key?: string;
    baseUrl: string;
    sports: string[];
    regions: string[];
    markets: string[];
    intervalSeconds: number;
    minRemaining: number;
    /** Scores poll interval while games are in progress (0: no scores). */
    scoresIntervalSeconds?: number;
  };
  enterpriseRequestsPerMinute?: number;
  /** Keys an enterprise account may hold (config/tiers.json otherwise). */
  enterpriseMaxKeys?: number;
  /** How often batched usage counts and key last-use times are written (ms). */
  usageFlushMs: number;
  /** Browser origins allowed to call the API: none (false, the default), any without credentials ('*'), or a list. */
  corsOrigins: string[] | '*' | false;
  bodyLimitBytes: number;
  /** JSON bodies: levels of nested objects/arrays, and keys plus array items in all (operator routes are exempt from the count). */
  bodyMaxDepth: number;
  bodyMaxKeys: number;
  /** Failed authentications (wrong API key or admin token) one client address may make per minute before it is locked out for the rest of the minute. */
  authFailuresPerMinute: number;
  /** /metrics without the admin token for requests from a loopback peer that carry no forwarding header. */
  metricsAllowLocal: boolean;
  /** Whom to believe about the client address (X-Forwarded-For): false, true, a hop count or addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  endedEventGraceSeconds: number;
  historyRetentionHours: number;
  /** Line history kept in the database (days): default 14 on the embedded store, 90 on PostgreSQL. */
  lineHistoryRetentionDays: number;
  /** Closing lines kept in the database (hours, at least 48). */
  closingLinesRetentionHours: number;
  /** A pre-game price last confirmed longer than this before the close is not a closing price (minutes). */
  closingLineMaxAgeMinutes: number;
  /** The devig method the CLV track record values +EV detections and closing lines with. */
  clvDevigMethod: 'multiplicative' | 'additive' | 'power' | 'shin' | 'worst_case';
  persistIntervalMs: number;
  docsUrl: string;
  version: string;
  /** Fixed operator token for /api/v1/admin (else a random one is written to DATA_DIR/server.json). */
  adminToken?: string;
  /** Run the in-process schedulers (providers, detectors, jobs). Tests switch them off and drive time. */
  schedulers: boolean;
}

export class ConfigError extends Error {}

function clvDevigMethod(env: NodeJS.ProcessEnv): AppConfig['clvDevigMethod'] {
  const raw = env.CLV_DEVIG_METHOD?.trim() || 'power';
  const ok = ['multiplicative', 'additive', 'power', 'shin', 'worst_case'] as const;
  const m = ok.find((x) => x === raw);
  if (!m) throw new ConfigError(`CLV_DEVIG_METHOD must be one of ${ok.join(', ')}, got "${raw}"`);
  return m;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const v = Number(raw);
  if (v < min || v > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${v}`);
  return v;
}

function list(env: NodeJS.ProcessEnv, name: string, def: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return def;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export const TIER_NAMES = ['free', 'hobby', 'pro', 'sharp', 'enterprise'] as const;

export function parseApiKeys(raw: string | undefined): Array<{ tier: string; key: string }> {
  if (!raw || !raw.trim()) return [];
  return raw
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const idx = pair.indexOf(':');
      if (idx <= 0) throw new ConfigError(`API_KEYS entries must be "tier:key", got "${pair}"`);
      const tier = pair.slice(0, idx).trim();
      const key = pair.slice(idx + 1).trim();
      if (!(TIER_NAMES as readonly string[]).includes(tier)) {
        throw new ConfigError(`API_KEYS: unknown tier "${tier}" (allowed: ${TIER_NAMES.join(', ')})`);
      }
      if (!/^[\x21-\x7e]{8,200}$/.test(key))
        throw new ConfigError(`API_KEYS: the key for tier "${tier}" must be 8-200 printable characters`);
      return { tier, key };
    });
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return raw;
}

/** CORS_ORIGINS: unset/false (no CORS), '*' (any origin, never with credentials) or exact origins, comma-separated. */
function corsOrigins(env: NodeJS.ProcessEnv): string[] | '*' | false {
  const raw = env.CORS_ORIGINS?.trim();
  if (!raw || raw === 'false') return false;
  if (raw === '*') return '*';
  if (raw === 'true')
    throw new ConfigError(
      'CORS_ORIGINS=true is not supported (it would reflect any origin): list the origins, or use * for any origin without credentials',
    );
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => {
      let u: URL;
      try {
        u = new URL(o);
      } catch {
        throw new ConfigError(`CORS_ORIGINS: "${o}" is not an origin such as https://app.example.com`);
      }
      if (!['http:', 'https:'].includes(u.protocol) || u.origin !== o.replace(/\/$/, '').toLowerCase()) {
        throw new ConfigError(`CORS_ORIGINS: "${o}" is not an origin (scheme://host[:port], no path), such as https://app.example.com`);
      }
      return u.origin;
    });
}

function ident(env: NodeJS.ProcessEnv, name: string, def: string): string {
  const raw = env[name]?.trim();
  if (!raw) return def;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) throw new ConfigError(`${name} must be a lower-case SQL identifier, got "${raw}"`);
  return raw;
}

function adminToken(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.ADMIN_TOKEN?.trim();
  if (!raw) return undefined;
  if (raw.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters');
  return raw;
}

/**
 * What only a server that ingests needs (the CLI shares the environment but runs no provider): a provider named in
 * PROVIDERS must have what it needs to run, or the start stops here with the fix, instead of polling nothing.
 */
export function checkServerConfig(config: AppConfig): void {
  if (config.role === 'api') return;
  if (config.providers.includes('odds_api') && !config.oddsApi.key) {
    throw new ConfigError(
      'PROVIDERS names odds_api but ODDS_API_KEY is not set: set ODDS_API_KEY to your The Odds API key (https://the-odds-api.com), or leave odds_api out of PROVIDERS',
    );
  }
}

/** TRUST_PROXY: unset/false, true, a number of proxy hops, or a comma-separated list of addresses/CIDRs. */
function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 10);
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const a of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a))
      throw new ConfigError(`TRUST_PROXY: "${a}" is not an address or CIDR (or use true, false or a hop count)`);
  }
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, version = '0.0.0'): AppConfig {
  const role = (env.ROLE ?? 'all').trim() as Role;
  if (!['all', 'api', 'worker'].includes(role)) throw new ConfigError(`ROLE must be all, api or worker, got "${role}"`);
  const logLevel = (env.LOG_LEVEL ?? 'info').trim() as AppConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be debug, info, warn, error or silent, got "${logLevel}"`);
  }
  const providers = list(env, 'PROVIDERS', ['simulator']);
  const knownProviders = ['simulator', 'odds_api', 'none'];
  for (const p of providers) {
    if (!knownProviders.includes(p)) throw new ConfigError(`PROVIDERS: unknown provider "${p}" (known: ${knownProviders.join(', ')})`);
  }
  const enterpriseRpm = env.ENTERPRISE_REQUESTS_PER_MINUTE ? int(env, 'ENTERPRISE_REQUESTS_PER_MINUTE', 10000, 1, 1_000_000) : undefined;
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const dataDir = resolve(env.DATA_DIR?.trim() || './data');
  const embeddedInMemory = bool(env, 'EMBEDDED_IN_MEMORY', false);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    databaseSchema: ident(env, 'DATABASE_SCHEMA', 'public'),
    dataDir,
    embeddedInMemory,
    heapGrowthPercent: int(env, 'HEAP_GROWTH_PERCENT', 0, 0, 1000),
    redisUrl,
    redisPrefix: env.REDIS_PREFIX?.trim() || 'odds:',
    apiKeys: parseApiKeys(env.API_KEYS),
    role,
    logLevel,
    providers: providers.includes('none') ? [] : providers,
    simulator: {
      seed: int(env, 'SIMULATOR_SEED', 42, 0, 2 ** 31 - 1),
      tickMs: int(env, 'SIMULATOR_TICK_MS', 1000, 50, 60_000),
      events: int(env, 'SIMULATOR_EVENTS', 180, 10, 5000),
      days: int(env, 'SIMULATOR_DAYS', 7, 1, 30),
      activity: int(env, 'SIMULATOR_ACTIVITY', 1, 1, 50),
    },
    oddsApi: {
      key: env.ODDS_API_KEY?.trim() || undefined,
      baseUrl: url(env, 'ODDS_API_BASE_URL', ['http:', 'https:']) ?? 'https://api.the-odds-api.com',
      sports: list(env, 'ODDS_API_SPORTS', ['basketball_nba', 'americanfootball_nfl', 'icehockey_nhl']),
      regions: list(env, 'ODDS_API_REGIONS', ['us']),
      markets: list(env, 'ODDS_API_MARKETS', ['h2h', 'spreads', 'totals']),
      intervalSeconds: int(env, 'ODDS_API_INTERVAL_SECONDS', 300, 5, 86_400),
      minRemaining: int(env, 'ODDS_API_MIN_REMAINING', 20, 0, 1_000_000),
      scoresIntervalSeconds: int(env, 'ODDS_API_SCORES_INTERVAL_SECONDS', 120, 0, 86_400),
    },
    enterpriseRequestsPerMinute: enterpriseRpm,
    enterpriseMaxKeys: env.ENTERPRISE_MAX_KEYS ? int(env, 'ENTERPRISE_MAX_KEYS', 10, 1, 10_000) : undefined,
    usageFlushMs: int(env, 'USAGE_FLUSH_MS', 1000, 50, 60_000),
    corsOrigins: corsOrigins(env),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    bodyMaxDepth: int(env, 'BODY_MAX_DEPTH', 32, 2, 1000),
    bodyMaxKeys: int(env, 'BODY_MAX_KEYS', 1000, 10, 1_000_000),
    authFailuresPerMinute: int(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    metricsAllowLocal: bool(env, 'METRICS_ALLOW_LOCAL', true),
    trustProxy: trustProxy(env),
    endedEventGraceSeconds: int(env, 'ENDED_EVENT_GRACE_SECONDS', 3600, 0, 7 * 86_400),
    historyRetentionHours: int(env, 'ODDS_HISTORY_RETENTION_HOURS', 24, 1, 24 * 365),
    lineHistoryRetentionDays: int(env, 'LINE_HISTORY_RETENTION_DAYS', databaseUrl ? 90 : 14, 1, 3650),
    closingLinesRetentionHours: int(env, 'CLOSING_LINES_RETENTION_HOURS', 168, 48, 24 * 3650),
    closingLineMaxAgeMinutes: int(env, 'CLOSING_LINE_MAX_AGE_MINUTES', 30, 1, 24 * 60),
    clvDevigMethod: clvDevigMethod(env),
    persistIntervalMs: int(env, 'PERSIST_INTERVAL_MS', 1000, 50, 60_000),
    docsUrl: env.DOCS_URL?.trim() || '/docs/errors',
    version,
    schedulers: bool(env, 'SCHEDULERS', true),
    adminToken: adminToken(env),
  };
}
