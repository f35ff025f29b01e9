import type { Redis } from 'ioredis';
import type { SnapshotMeta, SnapshotStore } from './lifecycle-publisher.js';

/** How long the snapshot outlives its last refresh (a worker gone for good leaves nothing behind for long). */
const TTL_SECONDS = 3600;

/**
 * The live opportunities' snapshot in Redis: a hash with one field per live record and a meta key, written and
 * read in one MULTI each, so a replica never reads half a refresh.
 */
export class RedisSnapshotStore implements SnapshotStore {
  private readonly metaKey: string;
  private readonly recordsKey: string;

  constructor(
    private readonly client: () => Redis,
    prefix: string,
  ) {
    this.metaKey = `${prefix}detection:snapshot:meta`;
    this.recordsKey = `${prefix}detection:snapshot:records`;
  }

  async meta(): Promise<SnapshotMeta | null> {
    const raw = await this.client().get(this.metaKey);
    return raw ? (JSON.parse(raw) as SnapshotMeta) : null;
  }

  async write(meta: SnapshotMeta, put: ReadonlyMap<string, string>, drop: readonly string[], replace: boolean): Promise<void> {
    const tx = this.client().multi();
    if (replace) tx.del(this.recordsKey);
    if (put.size) tx.hset(this.recordsKey, put as Map<string, string>);
    if (drop.length) tx.hdel(this.recordsKey, ...drop);
    tx.expire(this.recordsKey, TTL_SECONDS);
    tx.set(this.metaKey, JSON.stringify(meta), 'EX', TTL_SECONDS);
    const results = await tx.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('snapshot write aborted');
  }

  async read(): Promise<{ meta: SnapshotMeta; entries: string[] } | null> {
    const results = await this.client().multi().get(this.metaKey).hvals(this.recordsKey).exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw failed?.[0] ?? new Error('snapshot read aborted');
    const [[, raw], [, entries]] = results as [[null, string | null], [null, string[]]];
    return raw ? { meta: JSON.parse(raw) as SnapshotMeta, entries } : null;
  }
}
