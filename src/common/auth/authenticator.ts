import { Inject, Injectable } from '@nestjs/common';
import { AdminToken } from '../admin/admin-token.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { ApiError } from '../http/api-error.js';
import { RATE_LIMIT_STORE } from '../common.module.js';
import type { WindowStore } from '../rate-limit/rate-limit.storage.js';
import type { Account } from './account.js';
import { KEY_LOOKUP, type KeyLookup } from './key-lookup.js';
import { MetricsService } from '../metrics/metrics.service.js';

/** What any transport (HTTP request, SSE, WebSocket upgrade) knows about a caller. */
export interface Credentials {
  headers: Record<string, string | string[] | undefined>;
  /** The parsed query string (for ?api_key=); optional for transports without one. */
  query?: unknown;
  /** The client address (req.ip: honours TRUST_PROXY). Failed authentications are counted per address. */
  ip: string;
}

const FAILURE_WINDOW_MS = 60_000;
const MAX_KEY_LENGTH = 200;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The key sent with a request, in this order of precedence: X-API-Key, then Authorization: Bearer, then ?api_key=. */
export function extractKey(req: { headers: Credentials['headers']; query?: unknown }): string | undefined {
  const h = first(req.headers['x-api-key']);
  if (h && h.trim()) return h.trim();
  const auth = first(req.headers.authorization);
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m?.[1]) return m[1].trim();
  }
  const q = (req.query as Record<string, unknown> | undefined)?.api_key;
  const qv = Array.isArray(q) ? q[0] : q;
  if (typeof qv === 'string' && qv.trim()) return qv.trim();
  return undefined;
}

/** True for an IPv4 or IPv6 loopback address (127.0.0.0/8, ::1, and 127.x mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * A request made on this machine, directly: its socket peer is a loopback address and it carries no header a
 * proxy adds (so nothing relayed by a local reverse proxy counts as local).
 */
export function isDirectLocal(socketPeer: string | undefined, headers: Credentials['headers']): boolean {
  return (
    isLoopback(socketPeer) &&
    headers['x-forwarded-for'] === undefined &&
    headers.forwarded === undefined &&
    headers['x-real-ip'] === undefined
  );
}

/**
 * The one place a caller's credentials are checked, for every transport: API keys (X-API-Key, Bearer,
 * ?api_key=) and the operator's admin token. Failed attempts (a wrong key or token; a missing one is not an
 * attempt) are counted per client address on the shared rate-limit store; past AUTH_FAILURES_PER_MINUTE in a
 * minute, every attempt from that address, even with a correct key, is refused with 429 rate_limited until the
 * minute ends. Throws ApiError (401 unauthorized, 429 rate_limited with retry_after, 503 when the key store is
 * unreachable); the caller's transport turns it into its own error form.
 */
@Injectable()
export class Authenticator {
  private readonly limit: number;

  constructor(
    @Inject(KEY_LOOKUP) private readonly keys: KeyLookup,
    private readonly admin: AdminToken,
    @Inject(RATE_LIMIT_STORE) private readonly store: WindowStore,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.limit = config.authFailuresPerMinute;
  }

  /** The account of the API key sent; 401 when none is sent (unless `optional`: then undefined) or it is not valid. */
  authenticate(c: Credentials): Promise<Account>;
  authenticate(c: Credentials, opts: { optional: true }): Promise<Account | undefined>;
  async authenticate(c: Credentials, opts: { optional?: boolean } = {}): Promise<Account | undefined> {
    const key = extractKey(c);
    if (!key) {
      if (opts.optional) return undefined;
      throw new ApiError(
        'unauthorized',
        'Missing API key: send it in the X-API-Key header, as Authorization: Bearer <key>, or as ?api_key=',
      );
    }
    // A locked-out address gets no key lookup at all (3,000 guesses must not cost 3,000 database reads).
    const locked = await this.lockedOut(c.ip);
    if (locked) throw locked;
    const account = key.length <= MAX_KEY_LENGTH ? await this.keys.authenticate(key) : null;
    if (!account) throw await this.failure(c.ip, 'key', 'Invalid or revoked API key');
    return account;
  }

  /**
   * The caller's account when `authenticate` would return it without a key lookup (a valid key in the key cache,
   * the address not locked out); undefined otherwise, with nothing counted: the caller then takes `authenticate`.
   */
  async cachedAccount(c: Credentials): Promise<Account | undefined> {
    const key = extractKey(c);
    if (!key || key.length > MAX_KEY_LENGTH) return undefined;
    const w = await this.store.peek(this.counter(c.ip));
    if (w && w.totalHits >= this.limit) return undefined;
    return this.keys.cachedAuthenticate(key);
  }

  /** Passes when the request carries the operator's X-Admin-Token; otherwise 401 (429 past the failure limit). */
  async authenticateAdmin(c: Omit<Credentials, 'query'>): Promise<void> {
    const token = first(c.headers['x-admin-token']);
    if (!token) throw new ApiError('unauthorized', 'Missing X-Admin-Token');
    const locked = await this.lockedOut(c.ip);
    if (locked) throw locked;
    if (!this.admin.matches(token)) throw await this.failure(c.ip, 'admin', 'Wrong X-Admin-Token');
  }

  private counter(ip: string): string {
    return `authfail:${ip}`;
  }

  private refusal(retryAfter: number): ApiError {
    this.metrics.rateLimited.inc({ tier: 'failed_auth' });
    return new ApiError(
      'rate_limited',
      `Too many failed authentication attempts from this address (more than ${this.limit} per minute); every request from it is refused for ${retryAfter} s`,
      {
        retry_after: retryAfter,
      },
    );
  }

  private async lockedOut(ip: string): Promise<ApiError | null> {
    const w = await this.store.peek(this.counter(ip));
    return w && w.totalHits >= this.limit ? this.refusal(w.timeToExpire) : null;
  }

  /** Counts a failed attempt: 401, or 429 when this one goes past the limit. */
  private async failure(ip: string, kind: 'key' | 'admin', message: string): Promise<ApiError> {
    this.metrics.authFailures.inc({ kind });
    const rec = await this.store.increment(this.counter(ip), FAILURE_WINDOW_MS, this.limit);
    return rec.totalHits > this.limit ? this.refusal(rec.timeToExpire) : new ApiError('unauthorized', message);
  }
}
