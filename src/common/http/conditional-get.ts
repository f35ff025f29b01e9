import * as nodeCrypto from 'node:crypto';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dict } from '../../domain/dict.js';
import { LIMIT_CLAMPED_HEADER } from './limit-clamp.js';

/** Sent with every answer that carries an ETag: the answer is per caller, and is revalidated before each reuse. */
export const CACHE_CONTROL = 'private, max-age=0, must-revalidate';

/**
 * Where the body of an answer came from, as `X-Cache-Status` says it:
 * - `HIT`: a serialised page the server keeps was sent as it was (the odds pages, per board version; the answers of
 *   `@Revalidate` routes, while their data is unchanged), or a 304 was answered without building the answer;
 * - `MISS`: the route keeps serialised pages, and this request built the page (later requests reuse it);
 * - `BYPASS`: the route builds every answer (it keeps no serialised pages);
 * - `STALE`: never sent: a kept page belongs to one board version, so the server never serves one older than its data.
 */
export type CacheStatus = 'HIT' | 'MISS' | 'STALE' | 'BYPASS';

/** The answers that get an ETag: GET and HEAD 200 answers of the API, in JSON or CSV, but not the health report. */
const TYPES = /^(application\/json|text\/csv)\b/;

/** crypto.hash: the one-shot digest (Node 20.12+), cheaper per call than a Hash object; absent before. */
const oneShotHash = (nodeCrypto as Partial<Pick<typeof nodeCrypto, 'hash'>>).hash;
const sha256 = (data: string | Buffer): string =>
  oneShotHash ? oneShotHash('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');

interface Digest {
  body: string;
  /** The ETag per tier (a page kept by the server can be sent to callers of several tiers). */
  tags: Map<string, string>;
}

/**
 * Digests of the Buffers sent: a page the server keeps is sent as the same Buffer until its data changes, so its
 * bytes are hashed once, not per request (the polled odds pages are large and asked for thousands of times a
 * second). Only the odds pages are sent as Buffers; every other answer is a string serialised per request.
 */
const buffers = new WeakMap<Buffer, Digest>();

/**
 * The times an answer states about itself rather than about its data (when it was built, the clock to poll from
 * next): left out of an answer's digest, so an answer whose data did not change keeps its ETag from one request to
 * the next even though it was built again (`updated` is the teams list's name for it). The odds pages (Buffers) are
 * kept whole per board version.
 */
const RESPONSE_TIMES = /"(updated_at|server_time|updated)":"[^"]*"/g;

/**
 * The strong ETag of a body for a tier: the digest of the tier and of the body's digest, so the same bytes seen
 * by two tiers have two ETags (a tier's answers are filtered for it: an ETag of one never validates the other's).
 */
export function entityTag(tier: string, body: string | Buffer): { tag: string; status: CacheStatus } {
  if (typeof body === 'string') return { tag: tagOf(tier, stringDigest(body)), status: 'BYPASS' };
  let d = buffers.get(body);
  const status: CacheStatus = d ? 'HIT' : 'MISS';
  if (!d) buffers.set(body, (d = { body: sha256(body), tags: new Map() }));
  let tag = d.tags.get(tier);
  if (tag === undefined) d.tags.set(tier, (tag = tagOf(tier, d.body)));
  return { tag, status };
}

/**
 * A string answer as the Buffer the server keeps and sends again (a `@Revalidate` route's), with the ETag the string
 * has: its digest leaves the response times out, as for any string answer, whatever bytes they hold.
 */
function keepable(tier: string, body: string): { body: Buffer; tag: string } {
  const buf = Buffer.from(body);
  const d: Digest = { body: stringDigest(body), tags: new Map() };
  buffers.set(buf, d);
  const tag = tagOf(tier, d.body);
  d.tags.set(tier, tag);
  return { body: buf, tag };
}

/** The digest of a string answer: its response times left out, so that an answer built again keeps its digest. */
function stringDigest(body: string): string {
  return sha256(body.replace(RESPONSE_TIMES, '"$1":""'));
}

function tagOf(tier: string, bodyDigest: string): string {
  return `"${sha256(`${tier}:${bodyDigest}`).slice(0, 20)}"`;
}

/**
 * Whether an If-None-Match header value matches an entity tag, by the weak comparison RFC 9110 prescribes for
 * it: `*` matches any current answer; otherwise a comma-separated list of entity tags, each matching when its
 * opaque tag is the same, `W/` or not. Anything that is not an entity tag matches nothing.
 */
export function noneMatch(header: string | string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  // An entity tag is an optional W/ and a quoted string of characters other than the double quote.
  const re = /\s*(?:W\/)?("[^"]*")\s*(?:,|$)/y;
  let at = 0;
  while (at < value.length) {
    re.lastIndex = at;
    const m = re.exec(value);
    if (!m) {
      // Skip one malformed element (up to the next comma) and go on with the rest of the list.
      const comma = value.indexOf(',', at);
      if (comma < 0) return false;
      at = comma + 1;
      continue;
    }
    if (m[1] === opaque) return true;
    at = re.lastIndex;
  }
  return false;
}

/**
 * Conditional GETs on every data answer of the API: a strong, tier-scoped `ETag`, `Cache-Control: private,
 * max-age=0, must-revalidate` and `X-Cache-Status`; a request whose If-None-Match matches gets 304 with no body
 * (its other headers kept: the rate-limit headers, X-Tier, X-Request-Id). Decided as the answer is sent
 * (onSend), after the guards: a 304 is a request like any other on the rate limit and in the usage counts. A
 * `@Revalidate` route's answer is kept here as it is sent; its interceptor (revalidation.ts) answers from it while
 * the data is unchanged, and marks the request so that this hook sends the 304.
 * Streams (hijacked replies), errors, redirects and the health report are left as they are.
 */
export function registerConditionalGet(fastify: FastifyInstance, apiPrefix: string): void {
  const prefix = `/${apiPrefix}/`;
  const health = `/${apiPrefix}/health`;
  fastify.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p?: unknown) => void) => {
    if (req.notModified !== undefined) {
      void reply.header('ETag', req.notModified).header('Cache-Control', CACHE_CONTROL).header('X-Cache-Status', 'HIT');
      return done(null, notModified(reply));
    }
    if (
      reply.statusCode !== 200 ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      (typeof payload !== 'string' && !Buffer.isBuffer(payload))
    )
      return done(null, payload);
    const route = req.routeOptions.url;
    const type = reply.getHeader('content-type');
    if (!route?.startsWith(prefix) || route === health || typeof type !== 'string' || !TYPES.test(type)) return done(null, payload);
    const tier = req.account?.tier ?? 'none';
    let tag: string;
    let status: CacheStatus;
    if (req.revalidation && typeof payload === 'string') {
      // Kept to be sent again while its data is unchanged (revalidation.ts).
      const kept = keepable(tier, payload);
      const headers = dict<string>();
      for (const h of ROUTE_HEADERS) {
        const v = reply.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      req.revalidation.kept.keep(req.revalidation, { ...kept, type, headers });
      ({ body: payload, tag } = kept);
      status = 'MISS';
    } else ({ tag, status } = entityTag(tier, payload));
    void reply.header('ETag', tag).header('Cache-Control', CACHE_CONTROL).header('X-Cache-Status', status);
    if (!noneMatch(req.headers['if-none-match'], tag)) return done(null, payload);
    done(null, notModified(reply));
  });
}

/** RFC 9110: a 304 has no content; it carries the validator and the cache directives the 200 would have. */
function notModified(reply: FastifyReply): null {
  void reply.code(304).removeHeader('content-type').removeHeader('content-length');
  return null;
}

/** What a `@Revalidate` route's request carries from its interceptor (revalidation.ts) to the hook that digests the answer. */
export interface Revalidation {
  kept: KeptAnswers;
  key: string;
  /** The stamp of the data the answer is built from, taken before it was built. */
  stamp: { stamp: string; validUntil: number };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the answer is being built for a `@Revalidate` route: it is kept once sent. */
    revalidation?: Revalidation;
    /** Set when the request is answered 304 before the route ran: the ETag it matched. */
    notModified?: string;
  }
}

/** An answer kept for a request: its bytes, ETag and the headers its route set, and the stamp of the data it was built from. */
export interface KeptAnswer {
  stamp: string;
  validUntil: number;
  tag: string;
  body: Buffer;
  type: string;
  headers: Record<string, string>;
}

/** The headers a route's own work sets on its answer (the rest come from the guards and hooks, answer kept or not). */
const ROUTE_HEADERS = [LIMIT_CLAMPED_HEADER];

/**
 * The answers of `@Revalidate` routes as last sent, per request, with the stamp of the data each was built from:
 * at most `capacity` of them and `maxBytes` of bodies, the least recently used dropped first.
 */
export class KeptAnswers {
  private readonly entries = new Map<string, KeptAnswer>();
  private bytes = 0;

  constructor(
    readonly capacity = 10_000,
    readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  /** The answer kept for `key` if the data is still at `stamp` and the answer has not aged out by `now`. */
  current(key: string, stamp: string, now: number): KeptAnswer | undefined {
    const k = this.entries.get(key);
    if (!k || k.stamp !== stamp || now >= k.validUntil) return undefined;
    this.entries.delete(key);
    this.entries.set(key, k);
    return k;
  }

  keep(r: Revalidation, answer: Omit<KeptAnswer, 'stamp' | 'validUntil'>): void {
    this.drop(r.key);
    if (answer.body.length > this.maxBytes) return;
    this.entries.set(r.key, { ...answer, stamp: r.stamp.stamp, validUntil: r.stamp.validUntil });
    this.bytes += answer.body.length;
    while (this.entries.size > this.capacity || this.bytes > this.maxBytes) this.drop(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string): void {
    const k = this.entries.get(key);
    if (!k) return;
    this.entries.delete(key);
    this.bytes -= k.body.length;
  }
}
