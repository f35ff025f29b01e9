import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, Optional, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { ADDONS, TIERS, isAddon, isTier, loadTiers, tierRank, type TierName, type TierTable } from '../../config/tiers.js';
import type { Account } from '../../common/auth/account.js';
import { Clock } from '../../common/time/clock.js';
import { ApiError } from '../../common/http/api-error.js';
import { checkLabel } from '../../common/text/label.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { AccountEntity } from './account.entity.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeysRepository, type KeyWithAccount } from './api-keys.repository.js';
import { KEYS_TOPIC, type KeyChange } from '../../domain/topics.js';

/** crypto.hash: the one-shot digest (Node 20.12+), cheaper per request than a Hash object; absent before. */
const oneShotHash = (nodeCrypto as Partial<Pick<typeof nodeCrypto, 'hash'>>).hash;

export function hashKey(key: string): string {
  return oneShotHash ? oneShotHash('sha256', key, 'hex') : createHash('sha256').update(key, 'utf8').digest('hex');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new random key: `sk_live_` + 32 base62 characters (about 190 bits). */
export function generateKey(): string {
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return `sk_live_${out}`;
}

/** A key or account name as stored: null, or trimmed and within the name rule (400 otherwise). */
function checkedName(name: string | null): string | null {
  return name === null ? null : checkLabel(name, 'name');
}

export function maskKeyId(id: string): string {
  return id.length <= 8 ? id : `${id.slice(0, 8)}…${id.slice(-4)}`;
}

export interface KeyView {
  id: string;
  id_masked: string;
  account_id: string;
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
  expires_at: string | null;
}

export function keyView(k: KeyWithAccount, now?: number): KeyView {
  const expired = k.expiresAt !== null && now !== undefined && k.expiresAt.getTime() <= now;
  return {
    id: k.id,
    id_masked: maskKeyId(k.id),
    account_id: k.accountId,
    key_prefix: k.keyPrefix,
    name: k.name,
    tier: k.account.tier,
    is_active: k.isActive && !expired,
    arbitrage_enabled: k.account.arbitrageEnabled,
    source: k.source,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString(),
    last_used_at: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
    revoked_at: k.revokedAt ? k.revokedAt.toISOString() : null,
    expires_at: k.expiresAt ? k.expiresAt.toISOString() : null,
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

export function keyStatusOf(e: KeyWithAccount | null): KeyStatus {
  const expiresAt: number | null = e?.expiresAt ? e.expiresAt.getTime() : null;
  if (!e) return { refused: 'The API key no longer exists', expiresAt };
  if (!e.isActive) return { refused: 'The API key was revoked', expiresAt };
  if (!isTier(e.account.tier)) return { refused: `The API key's tier "${e.account.tier}" is not known`, expiresAt };
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

/** How long a key lookup is trusted before the store is asked again: a revoked key stops working within this. */
export const KEY_CACHE_MS = 3000;
/** How often batched last-use times are written: a busy key's last use is never more than this old in the store. */
export const LAST_USED_FLUSH_MS = 15_000;
/** The longest grace period of a rotation (the public product allows 0-72 h). */
export const MAX_GRACE_HOURS = 72;
const MAX_CACHE = 50_000;

/** The key value of a new or rotated key (shown once) and how it is listed from then on. */
export interface IssuedKey {
  key: string;
  view: KeyView;
}

/** An account's add-ons after a change. */
export interface AccountAddons {
  account_id: string;
  tier: string;
  addons: string[];
}

/** A rotation: the new key (shown once) and the old key's fate. */
export interface Rotation {
  created: IssuedKey;
  old: KeyView;
  /** When the old key stops working: now for no grace period. */
  oldExpiresAt: string;
  oldRevoked: boolean;
}

interface CachedKey {
  account: Account | null;
  expiresAt: number | null;
  at: number;
}

/**
 * Accounts and their API keys: creation, listing, rotation, revocation and authentication. Keys are hashed
 * (SHA-256; keys are long random strings, so a slow hash adds nothing); lookups are cached briefly so the hot
 * path does not query the database per request, and last-use times are written in batches.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('api-keys');
  private readonly cache = new Map<string, CachedKey>();
  private readonly pendingTouch = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;
  private readonly tiers: TierTable;

  constructor(
    private readonly repo: ApiKeysRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly bus?: EventBus,
  ) {
    this.tiers = loadTiers(config.enterpriseRequestsPerMinute, config.enterpriseMaxKeys);
    // Another instance changed a key: forget cached lookups at once (otherwise within KEY_CACHE_MS).
    bus?.subscribe(KEYS_TOPIC, () => this.cache.clear());
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.timer.unref();
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
    writeFileSync(
      file,
      `# Demo API keys, one per tier (created because the key store was empty and API_KEYS was not set)\n${lines.join('\n')}\n`,
      { mode: 0o600 },
    );
    // Printed once by main.ts, once the port answers, on purpose: this is how a new user gets a key. Never logged.
    this.demoKeys = { file, lines };
  }

  /** The demo keys this start created (null when it created none), for main.ts to print once. */
  demoKeys: { file: string; lines: string[] } | null = null;

  /** An API_KEYS entry: the key and an account of its own, created once; a changed tier moves the account. */
  private async upsert(key: string, tier: TierName, name: string, source: string): Promise<void> {
    const hash = hashKey(key);
    const existing = await this.repo.findByHash(hash);
    const now = this.clock.date();
    if (existing) {
      if (existing.account.tier !== tier) await this.repo.updateAccount(existing.accountId, { tier, updatedAt: now });
      if (!existing.isActive || existing.expiresAt)
        await this.repo.update(existing.id, { isActive: true, revokedAt: null, expiresAt: null, updatedAt: now });
      return;
    }
    const account = this.accountEntity(tier, name, now);
    await this.repo.insertAccount(account);
    await this.repo.insert(this.entity(key, account.id, name, source, now));
  }

  private accountEntity(tier: TierName, name: string | null, now: Date): AccountEntity {
    const a = new AccountEntity();
    a.id = `acct_${randomBytes(8).toString('hex')}`;
    a.name = name;
    a.tier = tier;
    a.arbitrageEnabled = true;
    a.maxKeys = null;
    a.addons = [];
    a.createdAt = now;
    a.updatedAt = now;
    return a;
  }

  private entity(key: string, accountId: string, name: string | null, source: string, now: Date): ApiKeyEntity {
    const e = new ApiKeyEntity();
    e.id = `key_${randomBytes(8).toString('hex')}`;
    e.keyHash = hashKey(key);
    e.keyPrefix = key.slice(0, Math.min(12, Math.floor(key.length / 2)));
    e.name = name;
    e.accountId = accountId;
    e.isActive = true;
    e.source = source;
    e.createdAt = now;
    e.updatedAt = now;
    e.lastUsedAt = null;
    e.revokedAt = null;
    e.expiresAt = null;
    return e;
  }

  /** Keys an account may hold at once: its own number, else its tier's. */
  maxKeys(account: Pick<AccountEntity, 'tier' | 'maxKeys'>): number {
    if (account.maxKeys !== null) return account.maxKeys;
    return isTier(account.tier) ? this.tiers.byName[account.tier].maxKeys : 1;
  }

  /** A new account of a tier with its first key (operators: API_KEYS, CLI, admin routes). */
  async create(tier: string, name: string | null, source = 'cli'): Promise<IssuedKey> {
    if (!isTier(tier)) throw new Error(`unknown tier "${tier}" (allowed: ${TIERS.join(', ')})`);
    name = checkedName(name);
    const now = this.clock.date();
    const account = this.accountEntity(tier, name, now);
    await this.repo.insertAccount(account);
    const key = generateKey();
    const e = this.entity(key, account.id, name, source, now);
    await this.repo.insert(e);
    return { key, view: keyView({ ...e, account } as KeyWithAccount) };
  }

  /**
   * A new key of an existing account, within the account's key limit (403 tier_restricted past it; 404 for an
   * unknown account).
   */
  async createForAccount(accountId: string, name: string | null, source: string): Promise<IssuedKey> {
    const key = generateKey();
    const now = this.clock.date();
    const e = this.entity(key, accountId, checkedName(name), source, now);
    const r = await this.repo.insertWithinLimit(e, (a) => this.maxKeys(a), now);
    if (!r.account) throw new ApiError('not_found', `No account with id ${accountId}`);
    if (!r.inserted) throw this.overLimit(r.account, r.max, 'revoke one (DELETE /account/keys/{id}) or rotate it instead');
    return { key, view: keyView({ ...e, account: r.account } as KeyWithAccount) };
  }

  /** 403 tier_restricted: the account holds as many working keys as it may (keys in a grace period included). */
  private overLimit(account: AccountEntity, max: number, advice: string): ApiError {
    const next = TIERS.find((t) => this.tiers.byName[t].maxKeys > max && tierRank(t) > tierRank(account.tier as TierName));
    return new ApiError(
      'tier_restricted',
      `This account may hold ${max} key${max === 1 ? '' : 's'} at once (${account.tier} tier), keys in a rotation grace period included; ${advice}`,
      { max_keys: max, tier: account.tier, ...(next ? { required_tier: next } : {}) },
    );
  }

  /** Every key (operators). */
  async list(): Promise<KeyView[]> {
    const now = this.clock.now();
    return (await this.repo.list()).map((k) => keyView(k, now));
  }

  /** An account's keys that still work (revoked and expired ones are left out), and how many it may hold. */
  async listForAccount(accountId: string): Promise<{ keys: KeyView[]; maxKeys: number }> {
    const now = this.clock.now();
    const all = await this.repo.listForAccount(accountId);
    const keys = all.filter((k) => keyRefusal(keyStatusOf(k), now) === null).map((k) => keyView(k, now));
    const account = all[0]?.account ?? (await this.repo.findAccount(accountId));
    return { keys, maxKeys: account ? this.maxKeys(account) : 0 };
  }

  /** One key of the account, or 404 when it does not exist, belongs to another account, or no longer works. */
  private async ownKey(caller: Account, keyId: string): Promise<KeyWithAccount> {
    const k = await this.repo.findById(keyId);
    if (!k || k.accountId !== caller.accountId || keyRefusal(keyStatusOf(k), this.clock.now()) !== null) {
      throw new ApiError('not_found', `No API key with id ${keyId} on this account`);
    }
    return k;
  }

  /** Revokes one of the caller's keys: 400 for the key making the request, 404 for anything not theirs. */
  async revokeOwn(caller: Account, keyId: string): Promise<KeyView> {
    await this.ownKey(caller, keyId);
    if (keyId === caller.keyId) {
      throw new ApiError(
        'invalid_request',
        'Cannot delete the API key used to authenticate this request; use another key of the account, or rotate this one',
      );
    }
    const v = await this.revoke(keyId);
    if (!v) throw new ApiError('not_found', `No API key with id ${keyId} on this account`);
    return v;
  }

  /**
   * Replaces one of the caller's keys: a new key (shown once) with the same name unless one is given; the old
   * key is revoked at once (grace 0) or keeps working for `graceHours` (at most 72) and then expires.
   */
  async rotateOwn(caller: Account, keyId: string, graceHours: number, name?: string | null): Promise<Rotation> {
    if (!Number.isFinite(graceHours) || graceHours < 0 || graceHours > MAX_GRACE_HOURS) {
      throw new ApiError('invalid_request', `gracePeriodHours must be a number from 0 to ${MAX_GRACE_HOURS}`, {
        parameter: 'gracePeriodHours',
      });
    }
    const old = await this.ownKey(caller, keyId);
    const now = this.clock.date();
    const key = generateKey();
    const e = this.entity(key, old.accountId, name === undefined ? old.name : checkedName(name), 'api', now);
    const oldExpiresAt = graceHours > 0 ? new Date(now.getTime() + graceHours * 3_600_000) : null;
    const r = await this.repo.rotateWithinLimit(e, old.id, now, oldExpiresAt, (a) => this.maxKeys(a));
    if (r.gone || !r.account) throw new ApiError('not_found', `No API key with id ${keyId} on this account`);
    if (!r.rotated)
      throw this.overLimit(
        r.account,
        r.max,
        'a key in its rotation grace period still counts: revoke it (DELETE /account/keys/{id}) or wait for its grace period to end',
      );
    this.announce(old.id);
    const after = await this.repo.findById(old.id);
    return {
      created: { key, view: keyView({ ...e, account: old.account } as KeyWithAccount) },
      old: keyView(after ?? old, now.getTime()),
      oldExpiresAt: (oldExpiresAt ?? now).toISOString(),
      oldRevoked: oldExpiresAt === null,
    };
  }

  async revoke(id: string): Promise<KeyView | null> {
    const now = this.clock.date();
    const ok = await this.repo.update(id, { isActive: false, revokedAt: now, updatedAt: now });
    this.announce(id);
    if (!ok) return null;
    const e = await this.repo.findById(id);
    return e ? keyView(e, now.getTime()) : null;
  }

  /** Switches the arbitrage flag of the account that owns a key. */
  async setArbitrage(id: string, enabled: boolean): Promise<KeyView | null> {
    const k = await this.repo.findById(id);
    if (!k) return null;
    await this.repo.updateAccount(k.accountId, { arbitrageEnabled: enabled, updatedAt: this.clock.date() });
    this.announce(id);
    const e = await this.repo.findById(id);
    return e ? keyView(e, this.clock.now()) : null;
  }

  /** Sets how many keys an account may hold (null: its tier's number). Null when the account does not exist. */
  async setMaxKeys(accountId: string, maxKeys: number | null): Promise<{ account_id: string; tier: string; max_keys: number } | null> {
    const ok = await this.repo.updateAccount(accountId, { maxKeys, updatedAt: this.clock.date() });
    if (!ok) return null;
    const a = await this.repo.findAccount(accountId);
    return a ? { account_id: a.id, tier: a.tier, max_keys: this.maxKeys(a) } : null;
  }

  /**
   * Gives an account an add-on or takes it away (400 for a name not in ADDONS). Like a key change, it is announced:
   * every instance drops its cached key lookups at once, so the account's keys are read again on their next
   * request. Null when the account does not exist.
   */
  async setAddon(accountId: string, addon: string, on: boolean): Promise<AccountAddons | null> {
    if (!isAddon(addon))
      throw new ApiError('invalid_request', `Unknown add-on "${addon.slice(0, 100)}" (known: ${ADDONS.join(', ')})`, {
        parameter: 'addon',
      });
    if (!(await this.repo.setAddon(accountId, addon, on, this.clock.date()))) return null;
    this.announce(null);
    const a = await this.repo.findAccount(accountId);
    return a ? { account_id: a.id, tier: a.tier, addons: a.addons } : null;
  }

  /** Forget cached lookups (called when another instance announces a key change). */
  invalidate(): void {
    this.cache.clear();
  }

  /**
   * `authenticate` answered from the key cache alone: the account (its use recorded, as `authenticate` does), or
   * undefined when the answer is not a cached valid key (unknown to the cache, stale, invalid or expired): the
   * caller then takes `authenticate`'s path. No lookup, no failure counted.
   */
  cachedAuthenticate(rawKey: string): Account | undefined {
    const now = this.clock.now();
    const hit = this.cache.get(hashKey(rawKey));
    if (!hit || now - hit.at >= KEY_CACHE_MS || !hit.account) return undefined;
    if (hit.expiresAt !== null && hit.expiresAt <= now) return undefined;
    this.pendingTouch.set(hit.account.keyId, new Date(now));
    return hit.account;
  }

  /** The account behind a key, or null when the key is unknown, revoked or expired. */
  async authenticate(rawKey: string): Promise<Account | null> {
    const hashHex = hashKey(rawKey);
    const now = this.clock.now();
    const hit = this.cache.get(hashHex);
    let entry: CachedKey;
    if (hit && now - hit.at < KEY_CACHE_MS) {
      entry = hit;
    } else {
      let e: KeyWithAccount | null;
      try {
        e = await this.repo.findByHash(hashHex);
      } catch {
        // The key store is unreachable: keep serving keys seen recently (a revocation made meanwhile lands when
        // the store is back; an expiry already read still applies); a key never seen cannot be checked.
        if (hit) return hit.expiresAt !== null && hit.expiresAt <= now ? null : hit.account;
        throw new ApiError('service_unavailable', 'The key store cannot be reached right now; retry shortly');
      }
      // The index lookup matched on the hash; compare it again in constant time before trusting the row.
      const hash = Buffer.from(hashHex, 'hex');
      const status = keyStatusOf(e);
      const valid = !!e && status.refused === null && timingSafeEqual(Buffer.from(e.keyHash, 'hex'), hash);
      const account: Account | null = valid
        ? {
            keyId: e!.id,
            accountId: e!.accountId,
            name: e!.name,
            tier: e!.account.tier as TierName,
            arbitrageEnabled: e!.account.arbitrageEnabled,
            addons: e!.account.addons,
          }
        : null;
      entry = { account, expiresAt: status.expiresAt, at: now };
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(hashHex, entry);
    }
    // A rotated-out key stops at its expiry, cached or not.
    if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
    if (entry.account) this.pendingTouch.set(entry.account.keyId, new Date(now));
    return entry.account;
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
      // Kept for the next flush (a newer use of the same key wins).
      for (const { id, at } of entries) if (!this.pendingTouch.has(id)) this.pendingTouch.set(id, at);
      this.logger.warn({ msg: 'could not record key last-use times', error: (err as Error).message });
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flushLastUsed();
  }
}
