import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InProcessBus } from '../../common/bus/in-process-bus.js';
import { ManualClock } from '../../common/time/clock.js';
import { keyRefusal, keyStatusOf, type ApiKeysService, type KeyStatus } from '../accounts/api-keys.service.js';
import type { KeyWithAccount } from '../accounts/api-keys.repository.js';
import { Jobs } from '../cluster/jobs.service.js';
import type { Leadership } from '../cluster/leadership.service.js';
import type { AppConfig } from '../../config/env.js';
import { KEY_CHECK_MS, keysToClose, StreamKeyWatch } from './key-watch.js';
import type { CloseReason } from './stream-client.js';
import type { StreamHub } from './stream-hub.js';
import { KEYS_TOPIC } from '../../domain/topics.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ok: KeyStatus = { refused: null, expiresAt: null };

/** The hub as the watch sees it: the keys streaming, and the streams it was told to close. */
class FakeHub {
  readonly open = new Set<string>();
  readonly closed: Array<{ keyId: string; reason: CloseReason }> = [];
  streamingKeys(): string[] {
    return [...this.open];
  }
  closeKey(keyId: string, reason: CloseReason): number {
    if (!this.open.delete(keyId)) return 0;
    this.closed.push({ keyId, reason });
    return 1;
  }
}

/** The key store as the watch sees it; `down` makes reads fail. */
class FakeKeys {
  readonly statuses = new Map<string, KeyStatus>();
  reads = 0;
  down = false;
  invalidations = 0;
  invalidate(): void {
    this.invalidations++;
  }
  async statusOf(ids: string[]): Promise<Map<string, KeyStatus>> {
    this.reads++;
    if (this.down) throw new Error('connection refused');
    return new Map(ids.map((id) => [id, this.statuses.get(id) ?? { refused: 'The API key no longer exists', expiresAt: null }]));
  }
}

beforeAll(() => Logger.overrideLogger(false));

const watches: StreamKeyWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.onApplicationShutdown();
});

function setup() {
  const hub = new FakeHub();
  const keys = new FakeKeys();
  const bus = new InProcessBus();
  const clock = new ManualClock(NOW);
  const jobs = new Jobs(clock, new SchedulerRegistry(), { isLeader: true } as Leadership, { schedulers: false } as AppConfig);
  const watch = new StreamKeyWatch(hub as unknown as StreamHub, keys as unknown as ApiKeysService, bus, clock, jobs);
  watch.onModuleInit();
  watches.push(watch);
  return { hub, keys, bus, clock, watch };
}

describe('which keys still work', () => {
  const entity = (patch: Partial<KeyWithAccount> & { tier?: string }) =>
    ({ isActive: true, expiresAt: null, ...patch, account: { tier: patch.tier ?? 'pro' } }) as KeyWithAccount;

  it('a revoked, unknown or off-table key is refused; an active one is not', () => {
    expect(keyStatusOf(entity({}))).toEqual(ok);
    expect(keyStatusOf(entity({ isActive: false }))).toEqual({ refused: 'The API key was revoked', expiresAt: null });
    expect(keyStatusOf(null).refused).toBe('The API key no longer exists');
    expect(keyStatusOf(entity({ tier: 'platinum' })).refused).toBe('The API key\'s tier "platinum" is not known');
    // A rotated-out key carries the end of its grace period.
    expect(keyStatusOf(entity({ expiresAt: new Date(NOW + 3_600_000) }))).toEqual({ refused: null, expiresAt: NOW + 3_600_000 });
  });

  it('a key with an expiry works until that instant', () => {
    const s: KeyStatus = { refused: null, expiresAt: NOW + 60_000 };
    expect(keyRefusal(s, NOW + 59_999)).toBeNull();
    expect(keyRefusal(s, NOW + 60_000)).toBe('The API key expired');
    expect(
      keysToClose(
        new Map([
          ['a', s],
          ['b', ok],
          ['c', { refused: 'The API key was revoked', expiresAt: null }],
        ]),
        NOW + 60_000,
      ),
    ).toEqual([
      { keyId: 'a', why: 'The API key expired' },
      { keyId: 'c', why: 'The API key was revoked' },
    ]);
  });
});

describe('StreamKeyWatch', () => {
  it('a key change on the bus closes the streams of a revoked key at once, and only those', async () => {
    const { hub, keys, bus, watch } = setup();
    hub.open.add('key_a').add('key_b');
    keys.statuses.set('key_a', ok).set('key_b', ok);
    await watch.check();
    expect(hub.closed).toEqual([]);
    keys.statuses.set('key_a', { refused: 'The API key was revoked', expiresAt: null });
    // No explicit check: the bus message triggers it (long before the next periodic one, KEY_CHECK_MS away).
    bus.publish(KEYS_TOPIC, { at: NOW, keyId: 'key_a' });
    await new Promise((r) => setTimeout(r, 50));
    expect(hub.closed).toEqual([
      { keyId: 'key_a', reason: { code: 'unauthorized', message: 'The API key was revoked; the stream is closed' } },
    ]);
    expect(hub.streamingKeys()).toEqual(['key_b']);
    // Cached lookups of keys are dropped too, so REST refuses the key here at once.
    expect(keys.invalidations).toBe(1);
  });

  it('without any bus message, the periodic check finds a revocation, KEY_CHECK_MS later, even with schedulers off', async () => {
    const { hub, keys, clock } = setup();
    hub.open.add('key_a');
    keys.statuses.set('key_a', { refused: 'The API key was revoked', expiresAt: null });
    await clock.advance(KEY_CHECK_MS - 1);
    expect(hub.closed).toEqual([]);
    await clock.advance(1);
    expect(hub.closed.map((c) => c.keyId)).toEqual(['key_a']);
  });

  it('a key given an expiry later is closed when that time passes, even with the store unreachable then', async () => {
    const { hub, keys, clock, watch } = setup();
    hub.open.add('key_a');
    keys.statuses.set('key_a', ok);
    await watch.check();
    // Key rotation gives the old key a grace period of one minute.
    keys.statuses.set('key_a', { refused: null, expiresAt: NOW + 60_000 });
    await watch.check();
    keys.down = true;
    clock.advance(59_000);
    await watch.check();
    expect(hub.closed).toEqual([]);
    clock.advance(1_000);
    await watch.check();
    expect(hub.closed).toEqual([
      { keyId: 'key_a', reason: { code: 'unauthorized', message: 'The API key expired; the stream is closed' } },
    ]);
  });

  it('an unreachable store closes nothing it cannot judge, and nothing is read while no stream is open', async () => {
    const { hub, keys, watch } = setup();
    await watch.check();
    expect(keys.reads).toBe(0);
    hub.open.add('key_a');
    keys.down = true;
    await watch.check();
    expect(hub.closed).toEqual([]);
    keys.down = false;
    keys.statuses.set('key_a', ok);
    await watch.check();
    expect(hub.closed).toEqual([]);
  });

  it('runs one check at a time: requests during a check make one more', async () => {
    const { hub, keys, watch } = setup();
    hub.open.add('key_a');
    keys.statuses.set('key_a', ok);
    const before = keys.reads;
    await Promise.all([watch.check(), watch.check(), watch.check(), watch.check()]);
    expect(keys.reads - before).toBe(2);
  });
});
