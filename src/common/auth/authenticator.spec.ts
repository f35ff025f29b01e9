import { describe, expect, it } from '@jest/globals';
import { AdminToken } from '../admin/admin-token.js';
import { loadConfig } from '../../config/env.js';
import { ApiError } from '../http/api-error.js';
import { MemoryWindowStore } from '../rate-limit/rate-limit.storage.js';
import { ManualClock } from '../time/clock.js';
import type { Account } from './account.js';
import { Authenticator, extractKey, isDirectLocal, isLoopback } from './authenticator.js';
import type { KeyLookup } from './key-lookup.js';
import { MetricsService } from '../metrics/metrics.service.js';

const GOOD = 'sk_good_key_0001';
const ACCOUNT: Account = { keyId: 'key_1', accountId: 'acct_1', name: null, tier: 'pro', arbitrageEnabled: true };
const ADMIN = 'admin_token_0123456789';

function setup(limit = 3) {
  const clock = new ManualClock(1_000_000);
  const lookups: string[] = [];
  const keys = {
    authenticate: async (k: string) => {
      lookups.push(k);
      return k === GOOD ? ACCOUNT : null;
    },
  } as unknown as KeyLookup;
  const metrics = new MetricsService();
  const auth = new Authenticator(
    keys,
    new AdminToken(ADMIN),
    new MemoryWindowStore(clock),
    loadConfig({ AUTH_FAILURES_PER_MINUTE: String(limit) }),
    metrics,
  );
  return { auth, clock, lookups, metrics };
}

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return e.extras.retry_after !== undefined ? `${e.status}:${e.extras.retry_after}` : String(e.status);
  }
}

const withKey = (key: string, ip = '10.0.0.1') => ({ headers: { 'x-api-key': key }, ip });

describe('Authenticator', () => {
  it('returns the account of a valid key sent in any of the three places', async () => {
    const { auth } = setup();
    await expect(auth.authenticate(withKey(GOOD))).resolves.toEqual(ACCOUNT);
    await expect(auth.authenticate({ headers: { authorization: `Bearer ${GOOD}` }, ip: 'x' })).resolves.toEqual(ACCOUNT);
    await expect(auth.authenticate({ headers: {}, query: { api_key: GOOD }, ip: 'x' })).resolves.toEqual(ACCOUNT);
  });

  it('refuses a missing key with 401 without counting it, or lets it through when optional', async () => {
    const { auth } = setup(1);
    for (let i = 0; i < 5; i++) expect(await outcome(auth.authenticate({ headers: {}, ip: 'a' }))).toBe('401');
    await expect(auth.authenticate({ headers: {}, ip: 'a' }, { optional: true })).resolves.toBeUndefined();
    await expect(auth.authenticate(withKey(GOOD, 'a'))).resolves.toEqual(ACCOUNT);
  });

  it('after N failures in a minute refuses every attempt from the address, a correct key included, until the minute ends', async () => {
    const { auth, clock, lookups, metrics } = setup(3);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(await outcome(auth.authenticate(withKey(`sk_wrong_${i}_xxxx`))));
    clock.advance(10_000);
    seen.push(await outcome(auth.authenticate(withKey(GOOD))));
    seen.push(await outcome(auth.authenticate(withKey('sk_wrong_9_xxxx'))));
    expect(seen).toEqual(['401', '401', '401', '429:50', '429:50']);
    // A locked-out address costs no key lookups.
    expect(lookups).toEqual(['sk_wrong_0_xxxx', 'sk_wrong_1_xxxx', 'sk_wrong_2_xxxx']);
    // Another address is not affected.
    await expect(auth.authenticate(withKey(GOOD, '10.0.0.2'))).resolves.toEqual(ACCOUNT);
    clock.advance(50_000);
    await expect(auth.authenticate(withKey(GOOD))).resolves.toEqual(ACCOUNT);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/auth_failures_total\{kind="key"\} 3/);
    expect(text).toMatch(/rate_limit_rejections_total\{tier="failed_auth"\} 2/);
  });

  it('answers 429 (not 401) to concurrent failures that go past the limit', async () => {
    const { auth } = setup(2);
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => outcome(auth.authenticate(withKey(`sk_wrong_${i}_xxxx`)))));
    expect(all.filter((o) => o === '401')).toHaveLength(2);
    expect(all.filter((o) => o.startsWith('429:'))).toHaveLength(4);
  });

  it('counts wrong admin tokens and wrong keys on one budget per address', async () => {
    const { auth } = setup(2);
    expect(await outcome(auth.authenticateAdmin({ headers: { 'x-admin-token': 'nope' }, ip: 'b' }))).toBe('401');
    expect(await outcome(auth.authenticate(withKey('sk_wrong_key_xx', 'b')))).toBe('401');
    expect(await outcome(auth.authenticateAdmin({ headers: { 'x-admin-token': ADMIN }, ip: 'b' }))).toBe('429:60');
    await expect(auth.authenticateAdmin({ headers: { 'x-admin-token': ADMIN }, ip: 'c' })).resolves.toBeUndefined();
    expect(await outcome(auth.authenticateAdmin({ headers: {}, ip: 'c' }))).toBe('401');
  });

  it('counts an over-long key as a failure without looking it up', async () => {
    const { auth, lookups } = setup(5);
    expect(await outcome(auth.authenticate(withKey('k'.repeat(201))))).toBe('401');
    expect(lookups).toEqual([]);
  });
});

describe('extractKey', () => {
  it('prefers X-API-Key, then Bearer, then ?api_key=, and ignores blanks', () => {
    expect(extractKey({ headers: { 'x-api-key': ' a ', authorization: 'Bearer b' }, query: { api_key: 'c' } })).toBe('a');
    expect(extractKey({ headers: { 'x-api-key': ' ', authorization: 'bearer  b ' }, query: { api_key: 'c' } })).toBe('b');
    expect(extractKey({ headers: { authorization: 'Basic zz' }, query: { api_key: ['c', 'd'] } })).toBe('c');
    expect(extractKey({ headers: {}, query: Object.assign(Object.create(null), { api_key: 7 }) })).toBeUndefined();
  });
});

describe('isDirectLocal', () => {
  it('is true only for a loopback socket peer with no forwarding header', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '1270.0.0.1', 'fe80::1', '', undefined]) expect(isLoopback(a)).toBe(false);
    expect(isDirectLocal('127.0.0.1', {})).toBe(true);
    expect(isDirectLocal('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe(false);
    expect(isDirectLocal('::1', { forwarded: 'for=203.0.113.9' })).toBe(false);
    expect(isDirectLocal('127.0.0.1', { 'x-real-ip': '203.0.113.9' })).toBe(false);
    expect(isDirectLocal('192.168.1.5', {})).toBe(false);
  });
});
