import { describe, expect, it } from '@jest/globals';
import { checkServerConfig, ConfigError, loadConfig, parseApiKeys } from './env.js';

describe('loadConfig', () => {
  it('has working defaults for a bare machine', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.providers).toEqual(['simulator']);
    expect(c.role).toBe('all');
    expect(c.databaseSchema).toBe('public');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ ROLE: 'boss' }, /ROLE must be/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL is not a valid URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis/],
    [{ PROVIDERS: 'simulator,nope' }, /unknown provider "nope"/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ SCHEDULERS: 'maybe' }, /SCHEDULERS must be true or false/],
    [{ DATABASE_SCHEMA: 'Bad-Name' }, /DATABASE_SCHEMA/],
    [{ ADMIN_TOKEN: 'short' }, /ADMIN_TOKEN/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('a server that would poll The Odds API without a key stops at start, saying how to fix it', () => {
    expect(() => checkServerConfig(loadConfig({ PROVIDERS: 'odds_api' }))).toThrow(/PROVIDERS names odds_api but ODDS_API_KEY is not set/);
    expect(() => checkServerConfig(loadConfig({ PROVIDERS: 'simulator,odds_api', ODDS_API_KEY: ' ' }))).toThrow(ConfigError);
    expect(() => checkServerConfig(loadConfig({ PROVIDERS: 'odds_api', ODDS_API_KEY: 'abc123' }))).not.toThrow();
    // An api instance runs no provider; the CLI does not call it (same environment, no polling).
    expect(() => checkServerConfig(loadConfig({ PROVIDERS: 'odds_api', ROLE: 'api' }))).not.toThrow();
    expect(() => checkServerConfig(loadConfig({}))).not.toThrow();
  });

  it('PROVIDERS=none turns every live source off', () => {
    expect(loadConfig({ PROVIDERS: 'none' }).providers).toEqual([]);
  });

  it('reads CORS origins: off unless configured, * or exact origins, never "reflect any"', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example,http://localhost:5173/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: 'false' }).corsOrigins).toBe(false);
    expect(loadConfig({}).corsOrigins).toBe(false);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(() => loadConfig({ CORS_ORIGINS: 'true' })).toThrow('reflect any origin');
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/app' })).toThrow('not an origin');
    expect(() => loadConfig({ CORS_ORIGINS: 'a.example' })).toThrow('not an origin');
  });

  it('reads the body, failed-login and metrics limits', () => {
    const d = loadConfig({});
    expect([d.bodyMaxDepth, d.bodyMaxKeys, d.authFailuresPerMinute, d.metricsAllowLocal]).toEqual([32, 1000, 30, true]);
    const c = loadConfig({ BODY_MAX_DEPTH: '8', BODY_MAX_KEYS: '50', AUTH_FAILURES_PER_MINUTE: '5', METRICS_ALLOW_LOCAL: 'false' });
    expect([c.bodyMaxDepth, c.bodyMaxKeys, c.authFailuresPerMinute, c.metricsAllowLocal]).toEqual([8, 50, 5, false]);
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: '0' })).toThrow('AUTH_FAILURES_PER_MINUTE');
    expect(() => loadConfig({ BODY_MAX_DEPTH: '1' })).toThrow('BODY_MAX_DEPTH');
  });

  it('believes X-Forwarded-For only when TRUST_PROXY says so', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow('TRUST_PROXY');
  });
});

describe('parseApiKeys', () => {
  it('parses tier:key pairs', () => {
    expect(parseApiKeys('free:sk_aaaaaaaa, pro:sk_bbbbbbbb')).toEqual([
      { tier: 'free', key: 'sk_aaaaaaaa' },
      { tier: 'pro', key: 'sk_bbbbbbbb' },
    ]);
    expect(parseApiKeys(undefined)).toEqual([]);
  });
  it('keeps colons inside the key', () => {
    expect(parseApiKeys('sharp:abc:defghij')).toEqual([{ tier: 'sharp', key: 'abc:defghij' }]);
  });
  it.each(['gold:sk_aaaaaaaa', 'sk_aaaaaaaa', 'free:short', 'free:has space in it'])('rejects %s', (raw) => {
    expect(() => parseApiKeys(raw)).toThrow(ConfigError);
  });
});
