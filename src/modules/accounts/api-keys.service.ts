import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { TIERS, isTier, type TierName } from '../../config/tiers.js';
import type { Account } from '../../common/auth/account.js';
import { Clock } from '../../common/time/clock.js';
import { ApiError } from '../../common/http/api-error.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeysRepository } from './api-keys.repository.js';

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new random key: `sk_live_` + 32 base62 characters (about 190 bits). */
export function generateKey(): string {
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return `sk_live_${out}`;
}

export function maskKeyId(id: string): string {
  return id.length <= 8 ? id : `${id.slice(0, 8)}…${id.slice(-4)}`;
}

export interface KeyView {
  id: string;
  id_masked: string;
  key_prefix: string;
  name: string | null;
  tier: string;
  is_active: boolean;
  arbitrage_enabled: boolean;
  source: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function keyView(k: ApiKeyEntity): KeyView {
  return {
    id: k.id,
    id_masked: maskKeyId(k.id),
    key_prefix: k.keyPrefix,
    name: k.name,
    tier: k.tier,
    is_active: k.isActive,
    arbitrage_enabled: k.arbitrageEnabled,
    source: k.source,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
    revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
  };
}

/**
 * Where a key stands, read from the store (never from the lookup cache): why it no longer works regardless of
 * time (revoked, unknown; null while it works), and when it stops working by itself (null: never).
 */
export interface KeyStatus {
  refused: string | null;
  expiresAt: number | null;
}

export function keyStatusOf(e: ApiKeyEntity | null): KeyStatus {
  // No key has an expiry yet; key rotation (a later issue) gives replaced keys one, and it is carried here.
  const expiresAt: number | null = null;
  if (!e) return { refused: 'The API key no longer exists', expiresAt };
  if (!e.isActive) return { refused: 'The API key was revoked', expiresAt };
  if (!isTier(e.tier)) return { refused: `The API key's tier "${e.tier}" is not known`, expiresAt };
  return { refused: null, expiresAt };
}

/**
 * The one rule for whether a key works at a time, used by authentication and by the checks of open streams:
 * why it does not (revoked, unknown, or past its expiry), or null when it does.
 */
export function keyRefusal(s: KeyStatus, now: number): string | null {
  if (s.refused !== null) return s.refused;
  if (s.expiresAt !== null && s.expiresAt <= now) return 'The API key expired';
  return null;
}

/** Announced on the bus when a key changes (revoked, flags): every instance re-checks its open streams. */
export interface KeyChange {
  at: number;
  keyId: string | null;
}

/** How long a key lookup is trusted before the store is asked again: a revoked key stops working within this. */
export const KEY_CACHE_MS = 3000;
export const KEYS_TOPIC = 'keys';
const MAX_CACHE = 50_000;

/**
 * API keys: creation, listing, revocation and authentication. Keys are hashed (SHA-256; keys are long random
 * strings, so a slow hash adds nothing); lookups are cached briefly so the hot path does not query the
 * database per request, and last-use times are written in batches.
 */
@Injectable()
export class ApiKeysService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('api-keys');
  private readonly cache = new Map<string, { account: Account | null; hash: Buffer; at: number }>();
  private readonly pendingTouch = new Map<string, Date>();

  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly bus?: EventBus,
  ) {
    // Another instance changed a key: forget cached lookups at once (otherwise within KEY_CACHE_MS).
    bus?.subscribe(KEYS_TOPIC, () => this.cache.clear());
  }

  private announce(keyId: string | null): void {
    this.cache.clear();
    this.bus?.publish<KeyChange>(KEYS_TOPIC, { at: this.clock.now(), keyId });
  }

  /** Upserts API_KEYS, or creates demo keys when the store is empty and API_KEYS is unset. */
  async bootstrap(): Promise<void> {
    await this.repo.exclusively(() => this.bootstrapKeys());
  }

  private async bootstrapKeys(): Promise<void> {
    if (this.config.apiKeys.length) {
      for (const { tier, key } of this.config.apiKeys) await this.upsert(key, tier as TierName, `env:${tier}`, 'env');
      this.logger.log({ msg: 'API_KEYS applied', count: this.config.apiKeys.length });
      return;
    }
    if ((await this.repo.count()) > 0) return;
    const lines: string[] = [];
    for (const tier of TIERS) {
      const { key } = await this.create(tier, `demo-${tier}`, 'demo');
      lines.push(`${tier}\t${key}`);
    }
    mkdirSync(this.config.dataDir, { recursive: true });
    const file = join(this.config.dataDir, 'demo-keys.txt');
    writeFileSync(file, `# Demo API keys, one per tier (created because the key store was empty and API_KEYS was not set)\n${lines.join('\n')}\n`, { mode: 0o600 });
    // Printed once by main.ts, once the port answers, on purpose: this is how a new user gets a key. Never logged.
    this.demoKeys = { file, lines };
  }

  /** The demo keys this start created (null when it created none), for main.ts to print once. */
  demoKeys: { file: string; lines: string[] } | null = null;

  private async upsert(key: string, tier: TierName, name: string, source: string): Promise<void> {
    const hash = hashKey(key);
    const existing = await this.repo.findByHash(hash);
    const now = this.clock.date();
    if (existing) {
      if (existing.tier !== tier || !existing.isActive) {
        await this.repo.update(existing.id, { tier, isActive: true, revokedAt: null, updatedAt: now });
      }
      return;
    }
    await this.repo.insert(this.entity(key, tier, name, source, now));
  }

  private entity(key: string, tier: TierName, name: string | null, source: string, now: Date): ApiKeyEntity {
    const e = new ApiKeyEntity();
    e.id = `key_${randomBytes(8).toString('hex')}`;
    e.keyHash = hashKey(key);
    e.keyPrefix = key.slice(0, Math.min(12, Math.floor(key.length / 2)));
    e.name = name;
    e.tier = tier;
    e.isActive = true;
    e.arbitrageEnabled = true;
    e.source = source;
    e.createdAt = now;
    e.updatedAt = now;
    e.lastUsedAt = null;
    e.revokedAt = null;
    return e;
  }

  async create(tier: string, name: string | null, source = 'cli'): Promise<{ key: string; view: KeyView }> {
    if (!isTier(tier)) throw new Error(`unknown tier "${tier}" (allowed: ${TIERS.join(', ')})`);
    if (name !== null && name.length > 100) throw new Error('name must be at most 100 characters');
    const key = generateKey();
    const e = this.entity(key, tier, name, source, this.clock.date());
    await this.repo.insert(e);
    return { key, view: keyView(e) };
  }

  async list(): Promise<KeyView[]> {
    return (await this.repo.list()).map(keyView);
  }

  async revoke(id: string): Promise<KeyView | null> {
    const now = this.clock.date();
    const ok = await this.repo.update(id, { isActive: false, revokedAt: now, updatedAt: now });
    this.announce(id);
    if (!ok) return null;
    const e = await this.repo.findById(id);
    return e ? keyView(e) : null;
  }

  async setArbitrage(id: string, enabled: boolean): Promise<KeyView | null> {
    const ok = await this.repo.update(id, { arbitrageEnabled: enabled, updatedAt: this.clock.date() });
    this.announce(id);
    if (!ok) return null;
    const e = await this.repo.findById(id);
    return e ? keyView(e) : null;
  }

  /** Forget cached lookups (called when another instance announces a key change). */
  invalidate(): void {
    this.cache.clear();
  }

  /** The account behind a key, or null when the key is unknown or revoked. */
  async authenticate(rawKey: string): Promise<Account | null> {
    const hashHex = hashKey(rawKey);
    const now = this.clock.now();
    const hit = this.cache.get(hashHex);
    let account: Account | null;
    if (hit && now - hit.at < KEY_CACHE_MS) {
      account = hit.account;
    } else {
      let e: ApiKeyEntity | null;
      try {
        e = await this.repo.findByHash(hashHex);
      } catch {
        // The key store is unreachable: keep serving keys seen recently (a revocation made meanwhile lands when
        // the store is back); a key never seen cannot be checked.
        if (hit) return hit.account;
        throw new ApiError('service_unavailable', 'The key store cannot be reached right now; retry shortly');
      }
      // The index lookup matched on the hash; compare it again in constant time before trusting the row.
      const hash = Buffer.from(hashHex, 'hex');
      const valid = !!e && keyRefusal(keyStatusOf(e), now) === null && timingSafeEqual(Buffer.from(e.keyHash, 'hex'), hash);
      account = valid ? { keyId: e!.id, name: e!.name, tier: e!.tier as TierName, arbitrageEnabled: e!.arbitrageEnabled } : null;
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(hashHex, { account, hash, at: now });
    }
    if (account) this.pendingTouch.set(account.keyId, new Date(now));
    return account;
  }

  /**
   * The status of keys by id, straight from the store (open streams are checked with this: a revocation made
   * on any instance, or a key that expired, is seen even when the bus message about it was lost).
   */
  async statusOf(ids: string[]): Promise<Map<string, KeyStatus>> {
    const found = new Map((await this.repo.findByIds(ids)).map((e) => [e.id, e]));
    return new Map(ids.map((id) => [id, keyStatusOf(found.get(id) ?? null)]));
  }

  /** Writes the batched last-use times. */
  async flushLastUsed(): Promise<void> {
    if (!this.pendingTouch.size) return;
    const entries = [...this.pendingTouch].map(([id, at]) => ({ id, at }));
    this.pendingTouch.clear();
    try {
      await this.repo.touch(entries);
    } catch (err) {
      this.logger.warn({ msg: 'could not record key last-use times', error: (err as Error).message });
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flushLastUsed();
  }
}
