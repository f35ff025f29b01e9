import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';

/** Where a request stands against its per-minute budget, as the throttler guard counted it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window ends, in Unix seconds. */
  reset: number;
}

const states = new WeakMap<object, RateLimitState>();

/** Called by the throttler guard once it has counted the request. */
export function recordRateLimit(req: object, state: RateLimitState): void {
  states.set(req, state);
}

/** The request's budget, if the throttler counted it (not for public and admin routes). */
export function rateLimitOf(req: object | undefined): RateLimitState | undefined {
  return req ? states.get(req) : undefined;
}

/** X-RateLimit-Limit, -Remaining and -Reset (Unix seconds). */
export function writeRateLimitHeaders(reply: FastifyReply, s: RateLimitState): void {
  void reply.header('X-RateLimit-Limit', String(s.limit));
  void reply.header('X-RateLimit-Remaining', String(s.remaining));
  void reply.header('X-RateLimit-Reset', String(s.reset));
}

/**
 * Puts the rate-limit headers on every response the throttler counted. They are written before the handler
 * runs, so a handler's error (400, 404...) and a stream's first bytes carry them too. A request a guard refuses
 * never reaches an interceptor: for those (the 429 itself, a 403 from the feature guard) the exception filter
 * writes the same headers from the same state (`rateLimitOf`).
 *
 * For other per-request accounting (usage counting): `rateLimitOf(req)` is the counted budget, and
 * `req.account` the caller; add a sibling interceptor rather than growing this one.
 */
@Injectable()
export class RateLimitHeadersInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const http = ctx.switchToHttp();
      const state = rateLimitOf(http.getRequest<object>());
      if (state) writeRateLimitHeaders(http.getResponse<FastifyReply>(), state);
    }
    return next.handle();
  }
}
