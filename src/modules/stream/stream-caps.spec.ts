import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { MemoryStreamCaps, RedisStreamCaps, type StreamCaps } from './stream-caps.js';

const REDIS_URL = process.env.TEST_REDIS_URL;

/** The behaviour both implementations share: exact counts, the oldest displaced first, release, renew. */
function shared(make: () => StreamCaps) {
  it('holds at most the cap: the stream past it displaces the oldest, in the order they came', async () => {
    const caps = make();
    expect(await caps.acquire('k', 's1', 2)).toEqual([]);
    expect(await caps.acquire('k', 's2', 2)).toEqual([]);
    expect(await caps.count('k')).toBe(2);
    expect(await caps.acquire('k', 's3', 2)).toEqual(['s1']);
    expect(await caps.acquire('k', 's4', 2)).toEqual(['s2']);
    expect(await caps.count('k')).toBe(2);
    expect(await caps.count('other')).toBe(0);
  });

  it('a closed stream gives its slot back', async () => {
    const caps = make();
    await caps.acquire('k', 's1', 2);
    await caps.acquire('k', 's2', 2);
    await caps.release('k', 's1');
    expect(await caps.count('k')).toBe(1);
    expect(await caps.acquire('k', 's3', 2)).toEqual([]);
    expect(await caps.count('k')).toBe(2);
  });

  it('renewing reports the streams that lost their slot', async () => {
    const caps = make();
    await caps.acquire('k', 's1', 1);
    await caps.acquire('j', 't1', 5);
    await caps.acquire('k', 's2', 1);
    const lost = await caps.renew([
      { keyId: 'k', streamId: 's1' },
      { keyId: 'k', streamId: 's2' },
      { keyId: 'j', streamId: 't1' },
    ]);
    expect(lost).toEqual(['s1']);
    // Renewing does not bring a displaced stream back.
    expect(await caps.count('k')).toBe(1);
  });

  it('stays exact when many streams of a key race for its slots', async () => {
    const caps = make();
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const displaced = (await Promise.all(ids.map((id) => caps.acquire('race', id, 5)))).flat();
    expect(await caps.count('race')).toBe(5);
    expect(displaced).toHaveLength(35);
    expect(new Set(displaced).size).toBe(35);
  });
}

describe('MemoryStreamCaps', () => {
  shared(() => new MemoryStreamCaps());
});

(REDIS_URL ? describe : describe.skip)('RedisStreamCaps', () => {
  const clients: Redis[] = [];
  const prefix = `test:caps:${randomUUID()}:`;
  let now = 1_800_000_000_000;
  const clock = () => now;
  /** An instance: its own connection, the same keys. */
  const instance = () => {
    const r = new Redis(REDIS_URL!, { lazyConnect: false });
    clients.push(r);
    return new RedisStreamCaps(r, prefix, 20_000, clock);
  };
  beforeAll(() => {
    now = 1_800_000_000_000;
  });
  afterAll(async () => {
    const keys = await clients[0]!.keys(`${prefix}*`);
    if (keys.length) await clients[0]!.del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
  });

  let n = 0;
  shared(() => {
    // Each case on keys of its own.
    const r = new Redis(REDIS_URL!);
    clients.push(r);
    return new RedisStreamCaps(r, `${prefix}${n++}:`, 20_000, clock);
  });

  it('two instances racing for the last slots of a key: the key never holds more than its cap', async () => {
    const a = instance();
    const b = instance();
    const ids = Array.from({ length: 30 }, (_, i) => `x${i}`);
    const results = await Promise.all(ids.map((id, i) => (i % 2 ? a : b).acquire('k1', id, 3)));
    expect(await a.count('k1')).toBe(3);
    expect(await b.count('k1')).toBe(3);
    const displaced = results.flat();
    expect(displaced).toHaveLength(27);
    const kept = ids.filter((id) => !displaced.includes(id));
    expect(kept).toHaveLength(3);
  });

  it('the slots of an instance that died (no release, no renewal) are free once their lease ran out', async () => {
    const dead = instance();
    const alive = instance();
    await dead.acquire('k2', 'd1', 2);
    await dead.acquire('k2', 'd2', 2);
    now += 10_000;
    await alive.acquire('k2', 'a1', 2);
    expect(await alive.count('k2')).toBe(2);
    // The survivor renews its own lease; the dead instance's run out 20 s after they were taken.
    now += 5_000;
    expect(await alive.renew([{ keyId: 'k2', streamId: 'a1' }])).toEqual([]);
    now += 6_000;
    expect(await alive.count('k2')).toBe(1);
    expect(await alive.acquire('k2', 'a2', 2)).toEqual([]);
    expect(await alive.count('k2')).toBe(2);
    // A renewal past its own lease reports the stream as lost (its holder closes it).
    now += 30_000;
    expect(await alive.renew([{ keyId: 'k2', streamId: 'a1' }])).toEqual(['a1']);
  });
});
