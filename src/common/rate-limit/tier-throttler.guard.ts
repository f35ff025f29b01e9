import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { getOptionsToken, getStorageToken } from '@nestjs/throttler';
import { AccessPolicy } from '../auth/access-policy.js';
import { accessRule } from '../auth/api-key.guard.js';
import { ApiError } from '../http/api-error.js';
import { Clock } from '../time/clock.js';
import { isInternalDispatch } from './internal-dispatch.js';
import { MetricsService } from '../../modules/metrics/metrics.service.js';

/**
 * Second global guard: per-key (or, keyless, per-IP) requests per minute from the tier table, on shared
 * counters. Sets X-RateLimit-Limit / -Remaining / -Reset (Unix seconds) on every authenticated response,
 * and Retry-After (seconds) with 429 rate_limited.
 */
@Injectable()
export class TierThrottlerGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly policy: AccessPolicy,
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

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, ttl } = props;
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const limit = this.policy.requestsPerMinute(req.account);
    const tracker = req.account ? `key:${req.account.keyId}` : `ip:${req.ip}`;
    const rec = await this.storageService.increment(tracker, ttl, limit, ttl, props.throttler.name ?? 'default');
    const resetUnix = Math.ceil(this.clock.now() / 1000) + rec.timeToExpire;
    void reply.header('X-RateLimit-Limit', String(limit));
    void reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - rec.totalHits)));
    void reply.header('X-RateLimit-Reset', String(resetUnix));
    if (rec.isBlocked) {
      this.metrics.rateLimited.inc({ tier: req.account?.tier ?? 'keyless' });
      void reply.header('Retry-After', String(rec.timeToBlockExpire));
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry in ${rec.timeToBlockExpire} s`, {
        retry_after: rec.timeToBlockExpire,
      });
    }
    return true;
  }
}
