import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager, type Repository } from 'typeorm';
import { KEY_BOOTSTRAP_LOCK, withAdvisoryLock } from '../../database/data-source.js';
import { AccountEntity } from './account.entity.js';
import { ApiKeyEntity } from './api-key.entity.js';

/** A key with the account that owns it (the account's tier and flags are the key's). */
export type KeyWithAccount = ApiKeyEntity & { account: AccountEntity };

/** SQL for accounts and API keys lives here and nowhere else. */
@Injectable()
export class ApiKeysRepository {
  private readonly repo: Repository<ApiKeyEntity>;
  private readonly accounts: Repository<AccountEntity>;
  /** The last key change queued per account (see withAccountLocked). */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(ApiKeyEntity);
    this.accounts = ds.getRepository(AccountEntity);
  }

  /** Runs `fn` while no other instance is bootstrapping keys (instances starting together take turns). */
  exclusively<T>(fn: () => Promise<T>): Promise<T> {
    return withAdvisoryLock(this.ds, KEY_BOOTSTRAP_LOCK, fn);
  }

  /**
   * Runs `fn` in a transaction holding the account's row lock (`SELECT ... FOR UPDATE`): key changes of one
   * account take turns, across instances by the row lock and within this instance by a queue per account (so
   * the turn holds on a store whose connections share one session too). Null when the account does not exist.
   */
  private withAccountLocked<T>(accountId: string, fn: (em: EntityManager, account: AccountEntity) => Promise<T>): Promise<T | null> {
    const prev = this.turns.get(accountId) ?? Promise.resolve();
    const run = prev.then(() =>
      this.ds.transaction(async (em: EntityManager) => {
        const account = await em
          .getRepository(AccountEntity)
          .createQueryBuilder('a')
          .setLock('pessimistic_write')
          .where('a.id = :id', { id: accountId })
          .getOne();
        return account ? fn(em, account) : null;
      }),
    );
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(accountId, settled);
    void settled.then(() => {
      if (this.turns.get(accountId) === settled) this.turns.delete(accountId);
    });
    return run;
  }

  /**
   * The keys of an account that work at `now` (active, and not past an expiry: a rotated-out key in its grace
   * period works, so it counts), leaving out `except`.
   */
  private working(em: EntityManager, accountId: string, now: Date, except?: string): Promise<number> {
    const q = em
      .getRepository(ApiKeyEntity)
      .createQueryBuilder('k')
      .where('k.account_id = :accountId', { accountId })
      .andWhere('k.is_active = true')
      .andWhere('(k.expires_at IS NULL OR k.expires_at > :now)', { now });
    if (except) q.andWhere('k.id <> :except', { except });
    return q.getCount();
  }

  /**
   * Inserts a key for an account unless the account already holds `limit(account)` working keys (keys in a
   * rotation grace period included), with the account locked meanwhile, so two requests at once cannot both
   * pass the limit. Returns the account, or null when it does not exist; `inserted` false when the limit was
   * reached.
   */
  async insertWithinLimit(
    key: ApiKeyEntity,
    limit: (a: AccountEntity) => number,
    now: Date,
  ): Promise<{ account: AccountEntity | null; inserted: boolean; max: number }> {
    const r = await this.withAccountLocked(key.accountId, async (em, account) => {
      const max = limit(account);
      if ((await this.working(em, account.id, now)) >= max) return { account, inserted: false, max };
      await em.getRepository(ApiKeyEntity).insert(key);
      return { account, inserted: true, max };
    });
    return r ?? { account: null, inserted: false, max: 0 };
  }

  /**
   * Inserts the key replacing another and retires the old one (revoked now, or expiring at `oldExpiresAt`), in
   * one transaction with the account locked, within the limit: the account's other working keys (keys in a
   * grace period included) and the new one must not exceed `limit(account)`, so a rotation adds at most the
   * replaced key, for its grace period. `rotated` false when the old key no longer works (`gone`) or the limit
   * would be passed.
   */
  async rotateWithinLimit(
    newKey: ApiKeyEntity,
    oldId: string,
    now: Date,
    oldExpiresAt: Date | null,
    limit: (a: AccountEntity) => number,
  ): Promise<{ account: AccountEntity | null; rotated: boolean; gone: boolean; max: number }> {
    const r = await this.withAccountLocked(newKey.accountId, async (em, account) => {
      const max = limit(account);
      const keys = em.getRepository(ApiKeyEntity);
      const old = await keys.findOne({ where: { id: oldId, accountId: account.id } });
      if (!old || !old.isActive || (old.expiresAt !== null && old.expiresAt.getTime() <= now.getTime()))
        return { account, rotated: false, gone: true, max };
      if ((await this.working(em, account.id, now, oldId)) + 1 > max) return { account, rotated: false, gone: false, max };
      await keys.insert(newKey);
      const patch = oldExpiresAt ? { expiresAt: oldExpiresAt, updatedAt: now } : { isActive: false, revokedAt: now, updatedAt: now };
      await keys.update({ id: oldId }, patch);
      return { account, rotated: true, gone: false, max };
    });
    return r ?? { account: null, rotated: false, gone: true, max: 0 };
  }

  findByHash(hash: string): Promise<KeyWithAccount | null> {
    return this.repo.findOne({ where: { keyHash: hash }, relations: { account: true } }) as Promise<KeyWithAccount | null>;
  }

  findById(id: string): Promise<KeyWithAccount | null> {
    return this.repo.findOne({ where: { id }, relations: { account: true } }) as Promise<KeyWithAccount | null>;
  }

  findByIds(ids: string[]): Promise<KeyWithAccount[]> {
    return ids.length
      ? (this.repo.find({ where: { id: In(ids) }, relations: { account: true } }) as Promise<KeyWithAccount[]>)
      : Promise.resolve([]);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  list(): Promise<KeyWithAccount[]> {
    return this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' }, relations: { account: true } }) as Promise<KeyWithAccount[]>;
  }

  listForAccount(accountId: string): Promise<KeyWithAccount[]> {
    return this.repo.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' }, relations: { account: true } }) as Promise<
      KeyWithAccount[]
    >;
  }

  findAccount(id: string): Promise<AccountEntity | null> {
    return this.accounts.findOne({ where: { id } });
  }

  async insertAccount(a: AccountEntity): Promise<void> {
    await this.accounts.insert(a);
  }

  async updateAccount(
    id: string,
    patch: Partial<Pick<AccountEntity, 'tier' | 'arbitrageEnabled' | 'maxKeys' | 'name' | 'updatedAt'>>,
  ): Promise<boolean> {
    const r = await this.accounts.update({ id }, patch);
    return (r.affected ?? 0) > 0;
  }

  /**
   * Adds an add-on to an account (kept sorted, once) or removes it, in one statement (two changes at once never
   * lose one). False when the account does not exist.
   */
  async setAddon(id: string, addon: string, on: boolean, now: Date): Promise<boolean> {
    const addons = on
      ? 'ARRAY(SELECT DISTINCT a FROM unnest(array_append(addons, :addon)) AS a ORDER BY a)'
      : 'array_remove(addons, :addon)';
    const r = await this.accounts
      .createQueryBuilder()
      .update()
      .set({ addons: () => addons, updatedAt: now })
      .where('id = :id', { id })
      .setParameter('addon', addon)
      .execute();
    return (r.affected ?? 0) > 0;
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.repo.insert(key);
  }

  async update(
    id: string,
    patch: Partial<Pick<ApiKeyEntity, 'isActive' | 'revokedAt' | 'updatedAt' | 'name' | 'expiresAt'>>,
  ): Promise<boolean> {
    const r = await this.repo.update({ id }, patch);
    return (r.affected ?? 0) > 0;
  }

  /** Records last use for many keys in one statement. */
  async touch(entries: Array<{ id: string; at: Date }>): Promise<void> {
    if (!entries.length) return;
    const values = entries.map((_, i) => `($${i * 2 + 1}::text, $${i * 2 + 2}::timestamptz)`).join(',');
    await this.repo.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, v.at), v.at) FROM (VALUES ${values}) AS v(id, at) WHERE k.id = v.id`,
      entries.flatMap((e) => [e.id, e.at.toISOString()]),
    );
  }
}
