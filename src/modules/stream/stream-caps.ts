import type { Redis } from 'ioredis';

/** How long a stream's slot outlives its instance's last heartbeat (an instance that dies sends no release). */
export const STREAM_LEASE_MS = 20_000;
/** How often each instance renews the leases of its open streams. */
export const STREAM_LEASE_RENEW_MS = 5_000;

/**
 * The per-key stream caps, counted where every instance sees them: in-process (embedded) or in Redis (services
 * mode). A key holds at most `cap` slots; taking one more displaces the key's oldest streams, whichever instance
 * holds them (their ids are returned; the holder closes them with `too_many_streams`). One atomic step, so two
 * instances racing for the last slot never leave the key above its cap.
 */
export abstract class StreamCaps {
  /** Takes a slot for a stream; the streams displaced to make room, oldest first. */
  abstract acquire(keyId: string, streamId: string, cap: number): Promise<string[]>;
  /** Gives a slot back (the stream closed). */
  abstract release(keyId: string, streamId: string): Promise<void>;
  /** Slots a key holds now. */
  abstract count(keyId: string): Promise<number>;
  /**
   * Renews the leases of this instance's streams; returns those no longer held (displaced elsewhere, or expired
   * while this instance could not reach Redis): their holder closes them.
   */
  abstract renew(streams: ReadonlyArray<{ keyId: string; streamId: string }>): Promise<string[]>;
}

/** One process: the slots in a map, in the order they were taken. */
export class MemoryStreamCaps extends StreamCaps {
  private readonly slots = new Map<string, string[]>();

  acquire(keyId: string, streamId: string, cap: number): Promise<string[]> {
    const list = (this.slots.get(keyId) ?? []).filter((id) => id !== streamId);
    list.push(streamId);
    const displaced = list.splice(0, Math.max(0, list.length - Math.max(cap, 0)));
    if (list.length) this.slots.set(keyId, list);
    else this.slots.delete(keyId);
    return Promise.resolve(displaced);
  }

  release(keyId: string, streamId: string): Promise<void> {
    const list = (this.slots.get(keyId) ?? []).filter((id) => id !== streamId);
    if (list.length) this.slots.set(keyId, list);
    else this.slots.delete(keyId);
    return Promise.resolve();
  }

  count(keyId: string): Promise<number> {
    return Promise.resolve(this.slots.get(keyId)?.length ?? 0);
  }

  renew(streams: ReadonlyArray<{ keyId: string; streamId: string }>): Promise<string[]> {
    return Promise.resolve(streams.filter((s) => !this.slots.get(s.keyId)?.includes(s.streamId)).map((s) => s.streamId));
  }
}

/** Lua, first step of both scripts (KEYS[1] leases, KEYS[2] order, ARGV[1] now): drops the expired leases. */
const DROP_EXPIRED = `
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if #dead > 0 then
  redis.call('ZREM', KEYS[1], unpack(dead))
  redis.call('ZREM', KEYS[2], unpack(dead))
end
`;

/**
 * KEYS: leases (zset: stream id -> lease expiry, ms), order (zset: stream id -> acquisition number), counter.
 * ARGV: now, lease expiry, cap, stream id, key ttl (ms).
 * Drops expired leases, adds the stream, and removes the oldest streams past the cap; returns those removed.
 */
const ACQUIRE = `${DROP_EXPIRED}local n = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[2], n, ARGV[4])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
local out = {}
if over > 0 then
  out = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  redis.call('ZREM', KEYS[1], unpack(out))
  redis.call('ZREM', KEYS[2], unpack(out))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
return out
`;

/** KEYS: leases, order. ARGV: now, lease expiry, key ttl, stream ids. Renews those held; returns those not held. */
const RENEW = `${DROP_EXPIRED}local lost = {}
for i = 4, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[i])
  else
    table.insert(lost, ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return lost
`;

type CapsCommands = Redis & {
  streamCapAcquire(
    leases: string,
    order: string,
    counter: string,
    now: number,
    expiry: number,
    cap: number,
    id: string,
    ttl: number,
  ): Promise<string[]>;
  streamCapRenew(leases: string, order: string, now: number, expiry: number, ttl: number, ...ids: string[]): Promise<string[]>;
};

/**
 * Services mode: per key a sorted set of stream ids scored by lease expiry (renewed by the holder's heartbeat),
 * and one of the order they came in (the oldest is displaced first). Lease times are wall time (Date.now), like
 * the sequence numbers: they are compared across processes.
 */
export class RedisStreamCaps extends StreamCaps {
  private readonly redis: CapsCommands;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs = STREAM_LEASE_MS,
    private readonly now: () => number = Date.now,
  ) {
    super();
    if (!('streamCapAcquire' in redis)) {
      redis.defineCommand('streamCapAcquire', { numberOfKeys: 3, lua: ACQUIRE });
      redis.defineCommand('streamCapRenew', { numberOfKeys: 2, lua: RENEW });
    }
    this.redis = redis as CapsCommands;
  }

  private keys(keyId: string): [string, string, string] {
    const base = `${this.prefix}streams:{${keyId}}`;
    return [`${base}:leases`, `${base}:order`, `${base}:n`];
  }

  private get ttl(): number {
    return this.leaseMs * 3;
  }

  acquire(keyId: string, streamId: string, cap: number): Promise<string[]> {
    const [leases, order, counter] = this.keys(keyId);
    const now = this.now();
    return this.redis.streamCapAcquire(leases, order, counter, now, now + this.leaseMs, Math.max(cap, 0), streamId, this.ttl);
  }

  async release(keyId: string, streamId: string): Promise<void> {
    const [leases, order] = this.keys(keyId);
    await this.redis.multi().zrem(leases, streamId).zrem(order, streamId).exec();
  }

  count(keyId: string): Promise<number> {
    return this.redis.zcount(this.keys(keyId)[0], `(${this.now()}`, '+inf');
  }

  async renew(streams: ReadonlyArray<{ keyId: string; streamId: string }>): Promise<string[]> {
    const byKey = new Map<string, string[]>();
    for (const s of streams) (byKey.get(s.keyId) ?? byKey.set(s.keyId, []).get(s.keyId)!).push(s.streamId);
    if (!byKey.size) return [];
    const now = this.now();
    const pipe = this.redis.pipeline() as ReturnType<Redis['pipeline']> & {
      streamCapRenew(leases: string, order: string, now: number, expiry: number, ttl: number, ...ids: string[]): unknown;
    };
    for (const [keyId, ids] of byKey) {
      const [leases, order] = this.keys(keyId);
      pipe.streamCapRenew(leases, order, now, now + this.leaseMs, this.ttl, ...ids);
    }
    const results = (await pipe.exec()) ?? [];
    const lost: string[] = [];
    for (const [err, value] of results) {
      if (err) throw err;
      lost.push(...(value as string[]));
    }
    return lost;
  }
}
