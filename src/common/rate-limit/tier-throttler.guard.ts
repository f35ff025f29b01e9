import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  getOptionsToken,
  getStorageToken,
  ThrottlerGuard,
  ThrottlerStorage,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { accessRule } from '../auth/api-key.guard.js';
import { ApiError } from '../http/api-error.js';
import { Clock } from '../time/clock.js';
import { isInternalDispatch } from './internal-dispatch.js';
import { recordRateLimit, type RateLimitState } from './rate-limit-headers.js';
import type { WindowRecord } from './rate-limit.storage.js';
import { MetricsService } from '../metrics/metrics.service.js';

/** The budget a request counts against: its key's, or (keyless) its client address's (also the storage key). */
export function budgetKey(req: FastifyRequest): string {
  return req.account ? `key:${req.account.keyId}` : `ip:${req.ip}`;
}

/** Where a counted request stands, as the rate-limit headers show it. */
export function budgetState(rec: { totalHits: number; timeToExpire: number }, limit: number, nowMs: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - rec.totalHits), reset: Math.ceil(nowMs / 1000) + rec.timeToExpire };
}

const precounted = new WeakMap<object, WindowRecord>();

/**
 * A request already counted on its budget before the guards ran (the odds fast path, which counts a request and
 * then hands a refused one to the guards so that the 429 is answered in one place): the guard takes this record
 * instead of counting the request again.
 */
export function markCounted(req: object, rec: WindowRecord): void {
  precounted.set(req, rec);
}

/**
 * Second global guard: per-key (or, keyless, per-IP) requests per minute, on shared counters. Built on
 * @nestjs/throttler's extension points: the per-tier limit is the throttler's `limit` option resolved per
 * request (app.module.ts), `getTracker` names the budget (the key, or the client address), `generateKey` keeps
 * that name as the storage key (one budget across routes and instances), the storage is the shared window
 * store, and `throwThrottlingException` answers 429 `rate_limited` with `retry_after`.
 *
 * `handleRequest` is still overridden, in a few lines: the base one writes its own headers (X-RateLimit-Reset in
 * seconds from now, where ours is a Unix time) and does not hand the counts to anyone else. This one records
 * them on the request; the RateLimitHeadersInterceptor (and, for refused requests, the exception filter)
 * writes the headers.
 */
@Injectable()
export class TierThrottlerGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
  ) {
    super(options, storage, reflector);
  }

  protected override async shouldSkip(ctx: ExecutionContext): Promise<boolean> {
    const kind = accessRule(this.reflector, ctx).kind;
    // A request this process dispatched to itself for a caller already counted (an MCP tool call).
    return kind === 'public' || kind === 'admin' || isInternalDispatch(ctx.switchToHttp().getRequest<FastifyRequest>());
  }

  /** The budget a request counts against: its key's, or (keyless) its client address's. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the base class's signature
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return budgetKey(req as FastifyRequest);
  }

  /** The storage key is the tracker itself: one budget per key across every route and instance. */
  protected override generateKey(_ctx: ExecutionContext, tracker: string): string {
    return tracker;
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
    blockDuration,
    throttler,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const rec = precounted.get(req) ?? (await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default'));
    precounted.delete(req);
    recordRateLimit(req, budgetState(rec, limit, this.clock.now()));
    if (rec.isBlocked) await this.throwThrottlingException(context, { limit, ttl, key, tracker, ...rec });
    return true;
  }

  protected override async throwThrottlingException(ctx: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    this.metrics.rateLimited.inc({ tier: req.account?.tier ?? 'keyless' });
    throw new ApiError(
      'rate_limited',
      `Rate limit of ${detail.limit} requests per minute exceeded; retry in ${detail.timeToBlockExpire} s`,
      {
        retry_after: detail.timeToBlockExpire,
      },
    );
  }
}
