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
import type { FastifyRequest } from 'fastify';
import { of, type Observable } from 'rxjs';
import type { Account } from '../auth/account.js';
import { Clock } from '../time/clock.js';
import { KnownTags, noneMatch } from './conditional-get.js';

/**
 * Conditional GETs answered before the answer is built. A route whose answer is a function of some data the
 * server can version cheaply declares that data with `@Revalidate(kind)`; a provider of ANSWER_STAMPS says the
 * data's current stamp. The ETag stays the digest of the answer (conditional-get.ts): the server remembers, per
 * caller and request, the ETag it last sent with the stamp of the data it was built from. A request whose
 * If-None-Match names that ETag while the stamp is unchanged is answered 304 without running the route.
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
 * The request's identity for its answer: method, URL (path and query as sent), the caller's key, tier and add-ons,
 * and the headers that choose a client profile's shape. Two requests with the same identity and the same data
 * stamp get the same answer.
 */
export function requestKey(req: FastifyRequest, account: Account | undefined): string {
  const a = account
    ? `${account.keyId}\u0001${account.tier}\u0001${account.arbitrageEnabled}\u0001${(account.addons ?? []).join(',')}`
    : '-';
  const h = req.headers;
  return `${req.method}\u0001${req.url}\u0001${a}\u0001${String(h['user-agent'] ?? '')}\u0001${String(h['x-client-profile'] ?? '')}`;
}

/**
 * Answers 304 before the route runs when the If-None-Match of a `@Revalidate` route's request names the ETag last
 * sent for it and its data has not changed since; otherwise lets the route build the answer and has its ETag
 * remembered (conditional-get.ts). After the guards: a 304 counts on the rate limit as any request does.
 */
@Injectable()
export class RevalidationInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    private readonly known: KnownTags,
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
    const inm = req.headers['if-none-match'];
    if (inm !== undefined) {
      const tag = this.known.current(key, stamp.stamp, now);
      if (tag !== undefined && noneMatch(inm, tag)) {
        req.notModified = tag;
        return of(undefined);
      }
    }
    req.revalidation = { known: this.known, key, stamp };
    return next.handle();
  }
}
