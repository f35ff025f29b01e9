import type { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import type { AccessPolicy } from '../auth/access-policy.js';

/** The budget's window. */
export const RATE_WINDOW_MS = 60_000;

/**
 * The throttler's configuration: one throttler with a minute's window whose limit is resolved per request from
 * the caller's tier (keyless callers: the per-address limit), on the shared window store. One throttler rather
 * than one per tier: a request is only ever counted against its own tier's budget, so per-tier throttlers would
 * all but one be skipped on every request.
 */
export function throttlerOptions(storage: ThrottlerStorage, policy: AccessPolicy): ThrottlerModuleOptions {
  return {
    throttlers: [
      {
        name: 'default',
        ttl: RATE_WINDOW_MS,
        limit: (ctx) => policy.requestsPerMinute(ctx.switchToHttp().getRequest<FastifyRequest>().account),
      },
    ],
    storage,
  };
}
