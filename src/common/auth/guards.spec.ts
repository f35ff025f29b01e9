import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import { Catalog } from '../../config/catalog.js';
import type { AppConfig } from '../../config/env.js';
import { loadTiers, type TierName } from '../../config/tiers.js';
import { ApiError } from '../http/api-error.js';
import { rateLimitOf, RateLimitHeadersInterceptor } from '../rate-limit/rate-limit-headers.js';
import { MemoryWindowStore } from '../rate-limit/rate-limit.storage.js';
import { throttlerOptions } from '../rate-limit/throttler-options.js';
import { TierThrottlerGuard } from '../rate-limit/tier-throttler.guard.js';
import { ManualClock } from '../time/clock.js';
import type { Account } from './account.js';
import { AccessPolicy } from './access-policy.js';
import { ApiKeyGuard, FeatureGuard } from './api-key.guard.js';
import type { Authenticator } from './authenticator.js';
import { AdminOnly, AdminOrLocal, OptionalKey, Public, RequiresFeature, RequiresKey } from './decorators.js';
import { MetricsService } from '../metrics/metrics.service.js';

beforeAll(() => Logger.overrideLogger(false));

/** The access rules as routes declare them. */
class Routes {
  @Public() health(): void {}
  @RequiresKey() odds(): void {}
  @OptionalKey() sports(): void {}
  @AdminOnly() adminKeys(): void {}
  @AdminOrLocal() metrics(): void {}
  @RequiresFeature('game_state') gameState(): void {}
}
type Route = keyof Routes;

interface FakeRequest {
  account?: Account;
  ip: string;
  headers: Record<string, string>;
  socket: { remoteAddress: string };
}
class FakeReply {
  headers: Record<string, string> = {};
  header(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }
}

function http(route: Route, req: Partial<FakeRequest> = {}) {
  const request: FakeRequest = { ip: '203.0.113.7', headers: {}, socket: { remoteAddress: '203.0.113.7' }, ...req };
  const reply = new FakeReply();
  const ctx = {
    getHandler: () => Routes.prototype[route],
    getClass: () => Routes,
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ExecutionContext;
  return { ctx, request, reply };
}

const account = (tier: TierName, keyId = `key_${tier}`): Account => ({
  keyId,
  accountId: `acct_${keyId}`,
  name: null,
  tier,
  arbitrageEnabled: true,
});
const tiers = loadTiers();
const policy = new AccessPolicy(tiers, new Catalog());

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('ApiKeyGuard', () => {
  /** An authenticator that knows one key per tier ("good-<tier>") and one admin token. */
  const calls: string[] = [];
  const auth = {
    async authenticate(req: FakeRequest & { key?: string }, opts: { optional?: boolean } = {}) {
      calls.push(`key${opts.optional ? '?' : ''}`);
      const key = req.headers['x-api-key'];
      if (!key) {
        if (opts.optional) return undefined;
        throw new ApiError('unauthorized', 'Missing API key');
      }
      const tier = key.replace(/^good-/, '') as TierName;
      if (!key.startsWith('good-')) throw new ApiError('unauthorized', 'Invalid API key');
      return account(tier);
    },
    async authenticateAdmin(req: FakeRequest) {
      calls.push('admin');
      if (req.headers['x-admin-token'] !== 'admin-token-0123456789') throw new ApiError('unauthorized', 'Invalid admin token');
    },
  } as unknown as Authenticator;
  const guard = (metricsAllowLocal = true) => new ApiKeyGuard(new Reflector(), auth, policy, { metricsAllowLocal } as AppConfig);

  it('a public route asks for nothing', async () => {
    calls.length = 0;
    const { ctx, reply } = http('health');
    expect(await guard().canActivate(ctx)).toBe(true);
    expect([calls, reply.headers]).toEqual([[], {}]);
  });

  it('a key route needs a working key: the account goes on the request, with X-Data-Delay and X-Tier', async () => {
    const { ctx, request, reply } = http('odds', { headers: { 'x-api-key': 'good-free' } });
    expect(await guard().canActivate(ctx)).toBe(true);
    expect(request.account).toEqual(account('free'));
    expect(reply.headers).toEqual({ 'X-Data-Delay': '60', 'X-Tier': 'free' });
    expect((await refusal(guard().canActivate(http('odds').ctx))).code).toBe('unauthorized');
    expect((await refusal(guard().canActivate(http('odds', { headers: { 'x-api-key': 'bad' } }).ctx))).message).toBe('Invalid API key');
  });

  it('an optional-key route passes without a key, and still refuses a wrong one', async () => {
    const none = http('sports');
    expect(await guard().canActivate(none.ctx)).toBe(true);
    expect(none.request.account).toBeUndefined();
    const pro = http('sports', { headers: { 'x-api-key': 'good-pro' } });
    await guard().canActivate(pro.ctx);
    expect(pro.reply.headers).toEqual({ 'X-Data-Delay': '0', 'X-Tier': 'pro' });
    expect((await refusal(guard().canActivate(http('sports', { headers: { 'x-api-key': 'bad' } }).ctx))).code).toBe('unauthorized');
  });

  it('admin routes need the admin token; metrics also answer a direct local request while METRICS_ALLOW_LOCAL is on', async () => {
    expect((await refusal(guard().canActivate(http('adminKeys').ctx))).message).toBe('Invalid admin token');
    expect(await guard().canActivate(http('adminKeys', { headers: { 'x-admin-token': 'admin-token-0123456789' } }).ctx)).toBe(true);
    const local = { socket: { remoteAddress: '127.0.0.1' } };
    // Local, but the admin-only route: the token is still needed.
    expect((await refusal(guard().canActivate(http('adminKeys', local).ctx))).code).toBe('unauthorized');
    calls.length = 0;
    expect(await guard().canActivate(http('metrics', local).ctx)).toBe(true);
    expect(calls).toEqual([]);
    // Relayed by a proxy on the same machine, or with local access switched off: the token again.
    expect(
      (await refusal(guard().canActivate(http('metrics', { ...local, headers: { 'x-forwarded-for': '198.51.100.1' } }).ctx))).code,
    ).toBe('unauthorized');
    expect((await refusal(guard(false).canActivate(http('metrics', local).ctx))).code).toBe('unauthorized');
  });
});

describe('FeatureGuard', () => {
  const guard = new FeatureGuard(new Reflector(), policy);

  it("lets a tier with the route's feature through, refuses a lower tier with 403 and the tier required", async () => {
    expect(guard.canActivate(http('gameState', { account: account('enterprise') }).ctx)).toBe(true);
    const e = await refusal(() => guard.canActivate(http('gameState', { account: account('sharp') }).ctx));
    expect([e.code, e.extras.required_tier]).toEqual(['tier_restricted', 'enterprise']);
    expect((await refusal(() => guard.canActivate(http('gameState').ctx))).code).toBe('unauthorized');
  });

  it('routes without a feature are not its business', () => {
    expect(guard.canActivate(http('odds').ctx)).toBe(true);
    expect(guard.canActivate(http('health').ctx)).toBe(true);
  });
});

describe('TierThrottlerGuard and the rate-limit headers', () => {
  async function setup() {
    const clock = new ManualClock(Date.parse('2026-11-22T12:00:10.400Z'));
    const metrics = new MetricsService();
    const store = new MemoryWindowStore(clock);
    const guard = new TierThrottlerGuard(throttlerOptions(store, policy), store, new Reflector(), clock, metrics);
    await guard.onModuleInit();
    return { clock, metrics, guard };
  }
  const headersOf = async (route: Route, req: Partial<FakeRequest>) => {
    const h = http(route, req);
    await lastValueFrom(new RateLimitHeadersInterceptor().intercept(h.ctx, { handle: () => of('body') }));
    return h.reply.headers;
  };

  it("counts a key's requests against its tier's budget; the request over it is 429 with retry_after; the window ends on the clock", async () => {
    const { clock, metrics, guard } = await setup();
    const free = account('free');
    const reset = String(Math.ceil(clock.now() / 1000) + 60);
    for (let i = 1; i <= 12; i++) {
      const { ctx, request } = http(i % 2 ? 'odds' : 'sports', { account: free });
      expect(await guard.canActivate(ctx)).toBe(true);
      expect(rateLimitOf(request)).toEqual({ limit: 12, remaining: 12 - i, reset: Number(reset) });
    }
    const over = http('odds', { account: free });
    const e = await refusal(guard.canActivate(over.ctx));
    expect([e.code, e.extras.retry_after, e.message]).toEqual([
      'rate_limited',
      60,
      'Rate limit of 12 requests per minute exceeded; retry in 60 s',
    ]);
    expect(rateLimitOf(over.request)).toEqual({ limit: 12, remaining: 0, reset: Number(reset) });
    expect((await metrics.rateLimited.get()).values).toEqual([expect.objectContaining({ labels: { tier: 'free' }, value: 1 })]);
    // Another key has its own budget; a pro key its tier's.
    expect(await guard.canActivate(http('odds', { account: account('free', 'key_other') }).ctx)).toBe(true);
    const pro = http('odds', { account: account('pro') });
    await guard.canActivate(pro.ctx);
    expect(rateLimitOf(pro.request)?.limit).toBe(300);
    await clock.advance(60_000);
    expect(await guard.canActivate(http('odds', { account: free }).ctx)).toBe(true);
  });

  it('keyless requests count per client address at the keyless limit; public and admin routes are not counted', async () => {
    const { guard } = await setup();
    for (let i = 0; i < 10; i++) await guard.canActivate(http('sports').ctx);
    expect((await refusal(guard.canActivate(http('sports').ctx))).code).toBe('rate_limited');
    expect(await guard.canActivate(http('sports', { ip: '198.51.100.9' }).ctx)).toBe(true);
    const health = http('health');
    expect(await guard.canActivate(health.ctx)).toBe(true);
    expect(await guard.canActivate(http('adminKeys').ctx)).toBe(true);
    expect(rateLimitOf(health.request)).toBeUndefined();
  });

  it('the interceptor writes X-RateLimit-Limit, -Remaining and -Reset (Unix seconds) from what the guard counted', async () => {
    const { clock, guard } = await setup();
    const h = http('odds', { account: account('hobby') });
    await guard.canActivate(h.ctx);
    await lastValueFrom(new RateLimitHeadersInterceptor().intercept(h.ctx, { handle: () => of('body') }));
    expect(h.reply.headers).toEqual({
      'X-RateLimit-Limit': '120',
      'X-RateLimit-Remaining': '119',
      'X-RateLimit-Reset': String(Math.ceil(clock.now() / 1000) + 60),
    });
    // Nothing counted (a public route): no headers.
    expect(await headersOf('health', {})).toEqual({});
  });
});
