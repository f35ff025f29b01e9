import { Injectable } from '@nestjs/common';
import { DataSource, In, type Repository } from 'typeorm';
import { KEY_BOOTSTRAP_LOCK, withAdvisoryLock } from '../../database/data-source.js';
import { ApiKeyEntity } from './api-key.entity.js';

/** SQL for API keys lives here and nowhere else. */
@Injectable()
export class ApiKeysRepository {
  private readonly repo: Repository<ApiKeyEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(ApiKeyEntity);
  }

  /** Runs `fn` while no other instance is bootstrapping keys (instances starting together take turns). */
  exclusively<T>(fn: () => Promise<T>): Promise<T> {
    return withAdvisoryLock(this.ds, KEY_BOOTSTRAP_LOCK, fn);
  }

  findByHash(hash: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { keyHash: hash } });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  findByIds(ids: string[]): Promise<ApiKeyEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  count(): Promise<number> {
    return this.repo.count();
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.repo.insert(key);
  }

  async update(id: string, patch: Partial<Pick<ApiKeyEntity, 'tier' | 'isActive' | 'arbitrageEnabled' | 'revokedAt' | 'updatedAt' | 'name'>>): Promise<boolean> {
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
