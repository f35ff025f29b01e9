import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { ChangeSet } from '../../domain/odds-row.js';
import { MemoryStreamLog, RedisStreamLog, type LogEntry } from './stream-log.js';
import type { OpportunityEvent } from '../../domain/topics.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const T0 = Date.parse('2026-11-22T12:00:00Z');

const entry = (seq: number, at: number): LogEntry => ({ seq, at, removedRows: [], events: new Map(), opps: [] });

describe('MemoryStreamLog', () => {
  it('holds entries in sequence order, at most its maximum, within its window', () => {
    let now = T0;
    const log = new MemoryStreamLog<LogEntry>(() => now, 60_000, 5);
    for (let i = 1; i <= 7; i++) log.add(entry(i * 10, now));
    expect(log.size).toBe(5);
    expect(log.first()).toBe(30);
    expect(log.last).toBe(70);
    // A late entry goes where it belongs.
    log.add(entry(45, now));
    expect(log.range(0, 100).map((e) => e.seq)).toEqual([40, 45, 50, 60, 70]);
    expect(log.after(45)?.seq).toBe(50);
    expect(log.after(70)).toBeUndefined();
    now += 61_000;
    log.add(entry(80, now));
    // Past the window only the newest is kept.
    expect(log.range(0, 100).map((e) => e.seq)).toEqual([80]);
  });

  it('reads from a sequence number it still covers, and answers null for one it does not', async () => {
    const log = new MemoryStreamLog<LogEntry>(() => T0, 60_000, 3);
    for (const s of [10, 20, 30, 40]) log.add(entry(s, T0));
    expect((await log.read(30, 40))!.map((e) => e.seq)).toEqual([30, 40]);
    expect((await log.read(20, 30))!.map((e) => e.seq)).toEqual([20, 30]);
    expect(await log.read(10, 40)).toBeNull();
    expect(await log.read(50, 60)).toBeNull();
    expect(log.covers(20)).toBe(true);
    expect(log.covers(10)).toBe(false);
  });
});

(REDIS_URL ? describe : describe.skip)('RedisStreamLog', () => {
  const clients: Redis[] = [];
  const base = `test:log:${randomUUID()}:`;
  const connect = () => {
    const r = new Redis(REDIS_URL!);
    clients.push(r);
    return r;
  };
  afterAll(async () => {
    const keys = await clients[0]!.keys(`${base}*`);
    if (keys.length) await clients[0]!.del(...keys);
    await Promise.all(clients.map((c) => c.quit()));
  });

  const seqAt = (ms: number, n = 0) => ms * 1000 + n;
  const cs = (seq: number, ids: string[]): ChangeSet =>
    ({
      version: 1,
      seq,
      at: T0,
      upserted: ids.map((id) => ({ id })),
      removed: [],
      events: [],
      eventsRemoved: [],
      seen: [],
    }) as unknown as ChangeSet;
  const opp = (seq: number, id: string): OpportunityEvent => ({
    seq,
    kind: 'arbitrage',
    scope: 'default',
    at: T0,
    detected: [{ id, eventId: 'e', sport: 'basketball', league: 'nba', marketType: 'moneyline', books: ['a', 'b'] }],
    expired: [],
    updated: [],
  });

  it('another instance reads what one wrote: the entries from a sequence number on, each change set with its opportunities', async () => {
    const prefix = `${base}1:`;
    const writer = new RedisStreamLog(connect(), prefix);
    const leader = new RedisStreamLog(connect(), prefix);
    const reader = new RedisStreamLog(connect(), prefix);
    const now = Date.now();
    const seqs = [seqAt(now - 3000), seqAt(now - 2000), seqAt(now - 2000, 1), seqAt(now - 1000)];
    for (const s of seqs) writer.append({ seq: s, at: T0, part: 'cs', cs: cs(s, [`row${s}`]), removedRows: [], events: [] });
    leader.append({ seq: seqs[1]!, at: T0, part: 'opp', evt: opp(seqs[1]!, 'arb1'), payloads: [['arb1', { id: 'arb1', profit: 1.2 }]] });
    await writer.settled();
    await leader.settled();
    const got = (await reader.read(seqs[1]!, seqs[3]!))!;
    expect(got.map((e) => e.seq)).toEqual(seqs.slice(1));
    expect(got[0]!.cs!.upserted.map((r) => r.id)).toEqual([`row${seqs[1]}`]);
    expect(got[0]!.opps).toHaveLength(1);
    expect(got[0]!.opps[0]!.payloads.get('arb1')).toEqual({ id: 'arb1', profit: 1.2 });
    expect(got[1]!.opps).toEqual([]);
    // Up to a bound: what this instance has not seen yet is left to live delivery.
    expect((await reader.read(seqs[0]!, seqs[2]!))!.map((e) => e.seq)).toEqual(seqs.slice(0, 3));
    // A sequence number the log never held: not resumable from it.
    expect(await reader.read(seqs[0]! + 7, seqs[3]!)).toBeNull();
  });

  it('a gap marker (an oversized change set left out) makes a range across it unreadable', async () => {
    const prefix = `${base}2:`;
    const log = new RedisStreamLog(connect(), prefix);
    const now = Date.now();
    const [a, b, c] = [seqAt(now - 300), seqAt(now - 200), seqAt(now - 100)];
    log.append({ seq: a, at: T0, part: 'cs', cs: cs(a, ['x']), removedRows: [], events: [] });
    log.append({ seq: b, at: T0, part: 'gap' });
    log.append({ seq: c, at: T0, part: 'cs', cs: cs(c, ['y']), removedRows: [], events: [] });
    await log.settled();
    expect(await log.read(a, c)).toBeNull();
    expect((await log.read(c, c))!.map((e) => e.seq)).toEqual([c]);
  });

  it('stays bounded: MAXLEN trims the oldest entries, and a resume from them is refused', async () => {
    const prefix = `${base}3:`;
    const redis = connect();
    const log = new RedisStreamLog(redis, prefix, 120_000, 10);
    const now = Date.now();
    const seqs = Array.from({ length: 600 }, (_, i) => seqAt(now - 1000, i));
    for (const s of seqs) log.append({ seq: s, at: T0, part: 'cs', cs: cs(s, ['r']), removedRows: [], events: [] });
    await log.settled();
    expect(log.written).toBe(600);
    const len = await redis.xlen(`${prefix}stream:log`);
    // MAXLEN ~ 20: trimmed by whole macro nodes (100 entries by default), so at most 20 + 100 remain.
    expect(len).toBeGreaterThanOrEqual(20);
    expect(len).toBeLessThanOrEqual(120);
    expect(await log.read(seqs[0]!, seqs[599]!)).toBeNull();
    const tail = (await log.read(seqs[590]!, seqs[599]!))!;
    expect(tail.map((e) => e.seq)).toEqual(seqs.slice(590));
  });

  it('ages entries out past its window (MINID)', async () => {
    const prefix = `${base}4:`;
    const redis = connect();
    const key = `${prefix}stream:log`;
    // Entries written 5 minutes ago (explicit ids), then one append now with a 1-minute window.
    const old = Date.now() - 300_000;
    for (let i = 0; i < 3; i++) await redis.xadd(key, `${old}-${i}`, 's', String(seqAt(old, i)), 'p', 'gap', 'd', '{}');
    const log = new RedisStreamLog(redis, prefix, 60_000, 3000);
    const s = seqAt(Date.now());
    log.append({ seq: s, at: T0, part: 'cs', cs: cs(s, ['r']), removedRows: [], events: [] });
    await log.settled();
    const ids = (await redis.xrange(key, '-', '+')).map(([id]) => id);
    expect(ids.some((id) => id.startsWith(String(old)))).toBe(false);
    expect(ids).toHaveLength(1);
  });

  it('expires the whole log once its window has passed with no append (a stopped worker leaves nothing behind)', async () => {
    const prefix = `${base}5:`;
    const redis = connect();
    const key = `${prefix}stream:log`;
    // A 60 s window and the 10 s clock skew allowance: the key lives 70 s past each append.
    const log = new RedisStreamLog(redis, prefix, 60_000, 3000);
    const s = seqAt(Date.now());
    log.append({ seq: s, at: T0, part: 'cs', cs: cs(s, ['r']), removedRows: [], events: [] });
    await log.settled();
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(70_000);
  });
});
