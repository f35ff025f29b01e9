import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import type { Account } from '../../common/auth/account.js';
import { writeAccountHeaders } from '../../common/auth/api-key.guard.js';
import { Authenticator } from '../../common/auth/authenticator.js';
import { RATE_LIMIT_STORE } from '../../common/common.module.js';
import { INTERNAL_DISPATCH_HEADER } from '../../common/rate-limit/internal-dispatch.js';
import { recordRateLimit, writeRateLimitHeaders } from '../../common/rate-limit/rate-limit-headers.js';
import type { WindowStore } from '../../common/rate-limit/rate-limit.storage.js';
import { RATE_WINDOW_MS } from '../../common/rate-limit/throttler-options.js';
import { budgetKey, budgetState, markCounted } from '../../common/rate-limit/tier-throttler.guard.js';
import { ACCESS_KEY, type AccessRule } from '../../common/auth/decorators.js';
import { Clock } from '../../common/time/clock.js';
import { UsageService } from '../accounts/usage.service.js';
import { BestOddsQuery, ListOddsQuery } from './dto/odds.query.js';
import { OddsController } from './odds.controller.js';
import { OddsService } from './odds.service.js';

/** The validated query objects the global validation pipe remembers (`CachingValidationPipe.cachedQuery`). */
export interface ValidatedQueries {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- a DTO class, as the pipe's metadata gives it
  cachedQuery(type: Function, value: unknown): object | undefined;
}

/** The routes the fast path answers (GET, under the global prefix), and what each reads. */
const ROUTES = {
  odds: {
    handler: OddsController.prototype.list,
    query: ListOddsQuery,
    page: (odds: OddsService, a: Account, q: object) => odds.listPage(a, q as ListOddsQuery),
  },
  'odds/best': {
    handler: OddsController.prototype.best,
    query: BestOddsQuery,
    page: (odds: OddsService, a: Account, q: object) => odds.bestPage(a, q as BestOddsQuery),
  },
} as const;
export type FastRoute = keyof typeof ROUTES;

/**
 * The routes taken by the fast path: those whose handler asks for a key and nothing more (no tier feature, no
 * guard, interceptor or throttler setting of its own), the only checks the fast path makes. A route given a
 * feature or its own guard later simply stops being fast.
 */
export const FAST_ROUTES: ReadonlySet<string> = new Set(
  Object.entries(ROUTES)
    .filter(([, r]) => {
      const keys = [...(Reflect.getMetadataKeys(r.handler) as unknown[]), ...(Reflect.getMetadataKeys(OddsController) as unknown[])];
      const rule = Reflect.getMetadata(ACCESS_KEY, r.handler) as AccessRule | undefined;
      const own = keys.filter((k) => typeof k === 'string' && /^(__guards__|__interceptors__|__pipes__|THROTTLER)/.test(k));
      return rule?.kind === 'key' && !rule.feature && own.length === 0;
    })
    .map(([name]) => name),
);

/**
 * The polled reads (GET /odds, /odds/best) answered before the Nest pipeline when every step of it is known to
 * pass and its outcome can be taken from memory: the key is in the key cache (valid, the address not locked
 * out), the query string was validated before (the pipe's remembered result), and the page is built or cached
 * by the same `OddsService` call the controller makes. It then does what the guards and interceptors do, with
 * their own functions: counts the request on its budget (`budgetKey`, the throttler's window store and limit),
 * writes X-Data-Delay, X-Tier and the rate-limit headers, counts usage, and sends the page bytes.
 *
 * Anything else goes down the Nest pipeline, which stays the one place errors are answered: a key not in the
 * cache, an unseen query, an internal dispatch; a request over its budget (marked counted, so the throttler
 * answers the 429 without counting it twice); a page that throws (the handler throws the same error again).
 * Nothing is counted twice: the authentication here counts no failures, and usage is counted only once the
 * page is in hand.
 */
@Injectable()
export class OddsFastPath {
  constructor(
    private readonly auth: Authenticator,
    private readonly policy: AccessPolicy,
    @Inject(RATE_LIMIT_STORE) private readonly store: WindowStore,
    private readonly usage: UsageService,
    private readonly odds: OddsService,
    private readonly clock: Clock,
  ) {}

  /** Answers the request and returns true, or returns false having sent nothing (the Nest pipeline answers). */
  async serve(route: FastRoute, queries: ValidatedQueries, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (req.headers[INTERNAL_DISPATCH_HEADER] !== undefined) return false;
    const spec = ROUTES[route];
    const q = queries.cachedQuery(spec.query, req.query);
    if (!q) return false;
    const account = await this.auth.cachedAccount(req);
    if (!account) return false;
    req.account = account;
    const limit = this.policy.requestsPerMinute(account);
    const rec = await this.store.increment(budgetKey(req), RATE_WINDOW_MS, limit);
    if (rec.isBlocked) {
      markCounted(req, rec);
      return false;
    }
    let body: Buffer;
    try {
      body = spec.page(this.odds, account, q);
    } catch {
      markCounted(req, rec);
      return false;
    }
    const state = budgetState(rec, limit, this.clock.now());
    recordRateLimit(req, state);
    this.usage.record(account.accountId);
    writeAccountHeaders(reply, account, this.policy);
    void reply.header('Content-Type', 'application/json; charset=utf-8');
    writeRateLimitHeaders(reply, state);
    void reply.send(body);
    return true;
  }
}
