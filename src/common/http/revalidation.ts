import {
  applyDecorators,
  Inject,
  Injectable,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { of, type Observable } from 'rxjs';
import type { Account } from '../auth/account.js';
import { Clock } from '../time/clock.js';
import { CLIENT_SHAPE } from '../client-profiles/rest-shapes.js';
import { KeptAnswers, noneMatch } from './conditional-get.js';

/**
 * Answers kept while their data is unchanged. A route whose answer is a function of some data the server can version
 * cheaply declares that data with `@Revalidate(kind)`; a provider of ANSWER_STAMPS says the data's current stamp.
 * The server keeps the answer it last sent per request (its bytes and ETag, the digest of the answer as for any
 * route: conditional-get.ts) with the stamp of the data it was built from. While the stamp is unchanged, a request
 * whose If-None-Match names that ETag is answered 304, and any other gets the kept bytes, without running the route.
 */

/** The data a route's answer is built from: `listing`, the events of the caller's board view as the event and reference lists show them. */
export type StampKind = 'listing';

/** A stamp of some data, and the time from which an answer built now may differ although the stamp does not. */
export interface AnswerStamp {
  stamp: string;
  /** The answer built from this stamp is the same at every time before this one (Infinity: at any time). */
  validUntil: number;
}

/** Says the current stamp of each kind of data, as a caller sees it. Provided once, to every module (the events module's ListingStampsModule). */
export interface AnswerStamps {
  stamp(kind: StampKind, account: Account | undefined, now: number): AnswerStamp;
}

export const ANSWER_STAMPS = Symbol('ANSWER_STAMPS');
/** The metadata key of the data a `@Revalidate` route declares. */
export const REVALIDATE_KIND = 'revalidate:kind';

/**
 * Marks a route whose answer is a function of the `kind` data, the request and the caller's account (see above).
 * Its interceptor is the route's own, so it runs after every global one (usage counts, rate-limit headers, client
 * profile): a 304 it answers before the route runs is counted and carries their headers as any other.
 */
export const Revalidate = (kind: StampKind) =>
  applyDecorators(SetMetadata(REVALIDATE_KIND, kind), UseInterceptors(RevalidationInterceptor));

/**
 * The request's identity for its answer: method, URL (path and query as sent), what of the caller's account an
 * answer can depend on (tier, add-ons, the arbitrage switch; not the key itself), and the headers that choose a
 * client profile. Two requests with the same identity and the same data stamp get the same answer.
 */
export function requestKey(req: FastifyRequest, account: Account | undefined): string {
  const a = account ? `${account.tier}\u0001${account.arbitrageEnabled}\u0001${(account.addons ?? []).join(',')}` : '-';
  const h = req.headers;
  return `${req.method}\u0001${req.url}\u0001${a}\u0001${String(h['user-agent'] ?? '')}\u0001${String(h['x-client-profile'] ?? '')}`;
}

/**
 * Answers a `@Revalidate` route's request from the answer kept for it while its data has not changed (304 when its
 * If-None-Match names the kept ETag, else the kept bytes); otherwise lets the route build the answer and has it
 * kept (conditional-get.ts). After the guards: such an answer counts on the rate limit as any request does.
 */
@Injectable()
export class RevalidationInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    private readonly kept: KeptAnswers,
    @Inject(ANSWER_STAMPS) private readonly stamps: AnswerStamps,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const kind = this.reflector.get<StampKind | undefined>(REVALIDATE_KIND, ctx.getHandler());
    if (!kind) return next.handle();
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next.handle();
    const now = this.clock.now();
    const stamp = this.stamps.stamp(kind, req.account, now);
    const key = requestKey(req, req.account);
    const kept = this.kept.current(key, stamp.stamp, now);
    if (kept) {
      const reply = ctx.switchToHttp().getResponse<FastifyReply>();
      if (noneMatch(req.headers['if-none-match'], kept.tag)) {
        void reply.headers(kept.headers);
        req.notModified = kept.tag;
        return of(undefined);
      }
      // A route whose answer a client profile reshapes afterwards is answered from its kept ETag only.
      if (!this.reflector.get(CLIENT_SHAPE, ctx.getHandler())) {
        void reply.headers(kept.headers).header('content-type', kept.type);
        return of(kept.body);
      }
    }
    req.revalidation = { kept: this.kept, key, stamp };
    return next.handle();
  }
}
