import { describe, expect, it } from '@jest/globals';
import type { Account } from '../../common/auth/account.js';
import {
  MAX_QUEUED_BYTES,
  SOCKET_HIGH_WATER,
  STALL_TIMEOUT_MS,
  StreamClient,
  type CloseReason,
  type Frame,
  type StreamFilter,
  type Transport,
  viewKey,
} from './stream-client.js';

/** A transport whose socket buffer the test sets; records what was written and how it was closed. */
class FakeTransport implements Transport {
  written: Frame[] = [];
  closedWith: Array<CloseReason | undefined> = [];
  held = 0;
  private goneFns: Array<() => void> = [];
  write(f: Frame): boolean {
    this.written.push(f);
    return this.held <= SOCKET_HIGH_WATER;
  }
  buffered(): number {
    return this.held;
  }
  onDrain(): void {}
  close(reason?: CloseReason): void {
    this.closedWith.push(reason);
  }
  onGone(fn: () => void): void {
    this.goneFns.push(fn);
  }
  goneNow(): void {
    for (const fn of this.goneFns) fn();
  }
}

const account: Account = { keyId: 'key_1', accountId: 'acct_1', name: null, tier: 'sharp', arbitrageEnabled: true };
const filter = { channels: new Set(), kinds: new Set(), minEv: 2, minProfit: 0.5 } as unknown as StreamFilter;
const tick = () => new Promise((r) => setTimeout(r, 10));

describe('StreamClient', () => {
  it('runs one snapshot at a time: a newer request stops the running one at its next frame, and the latest runs once more', async () => {
    const c = new StreamClient('s1', account, filter, new FakeTransport());
    const log: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const gates: Array<() => void> = [];
    const writer = (name: string) => async (current: () => boolean) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      for (let frame = 0; frame < 3; frame++) {
        await new Promise<void>((r) => gates.push(r));
        if (!current()) {
          log.push(`${name} stopped at ${frame}`);
          break;
        }
        log.push(`${name} frame ${frame}`);
      }
      inFlight--;
    };
    const first = c.snapshot(writer('A'));
    await tick();
    gates.shift()!(); // A writes frame 0
    await tick();
    // Three more requests while A runs: only the last one's writer runs after A stops.
    const second = c.snapshot(writer('B'));
    c.snapshot(writer('C'));
    const fourth = c.snapshot(writer('D'));
    expect(second).toBe(first);
    expect(fourth).toBe(first);
    gates.shift()!(); // A sees it was superseded
    await tick();
    while (gates.length) {
      gates.shift()!();
      await tick();
    }
    await first;
    expect(log).toEqual(['A frame 0', 'A stopped at 1', 'D frame 0', 'D frame 1', 'D frame 2']);
    expect(maxInFlight).toBe(1);
    expect(c.snapshotting).toBe(true); // the writer ends it (endSnapshot), not the runner
  });

  it('a stalled reader is cut off after STALL_TIMEOUT_MS of its own clock', async () => {
    let now = 1_000_000;
    const t = new FakeTransport();
    const c = new StreamClient('s1', account, filter, t, () => now);
    t.held = SOCKET_HIGH_WATER + 1;
    const waiting = c.drained();
    await tick();
    expect(c.closed).toBe(false);
    now += STALL_TIMEOUT_MS + 1;
    await waiting;
    expect(c.closed).toBe(true);
    expect(t.closedWith).toEqual([
      { code: 'backpressure', message: `The client read nothing for ${STALL_TIMEOUT_MS / 1000} s; reconnect with Last-Event-ID to resume` },
    ]);
  });

  it('a superseded wait for the socket ends at once', async () => {
    const t = new FakeTransport();
    const c = new StreamClient('s1', account, filter, t);
    t.held = SOCKET_HIGH_WATER + 1;
    let cancelled = false;
    const waiting = c.drained(() => cancelled);
    cancelled = true;
    await waiting;
    expect(c.closed).toBe(false);
  });

  it('closing frees its queues, tells the transport once, and is not "gone" until the connection is', () => {
    const t = new FakeTransport();
    const c = new StreamClient('s1', account, filter, t);
    c.endSnapshot();
    t.held = SOCKET_HIGH_WATER + 1;
    c.send({ id: '1-0', event: 'odds:update', data: 'x'.repeat(1000) });
    expect(c.queuedBytes).toBe(1000);
    const gone: string[] = [];
    c.whenGone(() => gone.push('gone'));
    c.close({ code: 'unauthorized', message: 'revoked' });
    c.close({ code: 'backpressure', message: 'again' });
    expect(c.queue).toEqual([]);
    expect(c.queuedBytes).toBe(0);
    expect(t.closedWith).toEqual([{ code: 'unauthorized', message: 'revoked' }]);
    expect(c.gone).toBe(false);
    expect(gone).toEqual([]);
    t.goneNow();
    expect(c.gone).toBe(true);
    expect(gone).toEqual(['gone']);
    c.whenGone(() => gone.push('late'));
    expect(gone).toEqual(['gone', 'late']);
  });

  it('a connection that goes away closes the stream', () => {
    const t = new FakeTransport();
    const c = new StreamClient('s1', account, filter, t);
    const closed: Array<CloseReason | undefined> = [];
    c.onClose = (r) => closed.push(r);
    t.goneNow();
    expect(c.closed).toBe(true);
    expect(closed).toEqual([undefined]);
  });

  it('a client too far behind is cut off at MAX_QUEUED_BYTES', () => {
    const t = new FakeTransport();
    const c = new StreamClient('s1', account, filter, t);
    c.endSnapshot();
    t.held = SOCKET_HIGH_WATER + 1;
    const frame = { id: '1-0', event: 'odds:update', data: 'x'.repeat(64 * 1024) };
    let sent = 0;
    while (c.send(frame)) sent++;
    expect(sent).toBe(MAX_QUEUED_BYTES / (64 * 1024));
    expect(t.closedWith[0]?.code).toBe('backpressure');
  });

  describe('deferred frames', () => {
    /** A FakeTransport whose batches are recorded; each write inside one adds to the socket's buffer. */
    class BatchingTransport extends FakeTransport {
      batches: Frame[][] = [];
      private current: Frame[] | null = null;
      perWrite = 0;
      override write(f: Frame): boolean {
        if (this.current) this.current.push(f);
        this.held += this.perWrite;
        return super.write(f);
      }
      batch(fn: () => void): void {
        this.current = [];
        fn();
        this.batches.push(this.current);
        this.current = null;
      }
    }
    const frame = (k: number, data = '{}'): Frame => ({ id: `1-${k}`, event: 'odds:update', data });
    // A filter is not read here: the snapshot writer below writes nothing.
    const live = (c: StreamClient) => void c.snapshot(async () => undefined).then(() => c.endSnapshot());

    it('are written in order, in one batch, when delivered; nothing before', async () => {
      const t = new BatchingTransport();
      const c = new StreamClient('s1', account, filter, t);
      live(c);
      await tick();
      c.defer([frame(0), frame(1)]);
      c.defer([frame(2)]);
      expect(t.written).toEqual([]);
      expect(c.deliver()).toBe(3);
      expect(t.batches.map((b) => b.map((f) => f.id))).toEqual([['1-0', '1-1', '1-2']]);
      expect(c.deliver()).toBe(0);
      expect(t.batches).toHaveLength(1);
    });

    it('go before a frame sent directly (a heartbeat), and before a new snapshot starts', async () => {
      const t = new BatchingTransport();
      const c = new StreamClient('s1', account, filter, t);
      live(c);
      await tick();
      c.defer([frame(0)]);
      c.send({ id: '1-h0', event: 'heartbeat', data: '{}' });
      expect(t.written.map((f) => f.id)).toEqual(['1-0', '1-h0']);
      c.defer([frame(1)]);
      const order: string[] = [];
      void c.snapshot(async () => void order.push(`snapshot after ${t.written.length} frames`));
      await tick();
      expect(order).toEqual(['snapshot after 3 frames']);
    });

    it('keep the back-pressure of send: past the socket high-water mark the rest waits in the queue, in order', async () => {
      const t = new BatchingTransport();
      const c = new StreamClient('s1', account, filter, t);
      live(c);
      await tick();
      // The socket takes what is written in a batch and sends it when the batch ends: its buffer grows meanwhile.
      t.perWrite = SOCKET_HIGH_WATER / 2 + 1;
      c.defer([frame(0, 'a'), frame(1, 'bb'), frame(2, 'ccc'), frame(3, 'dddd')]);
      expect(c.deliver()).toBe(4);
      expect(t.batches.map((b) => b.map((f) => f.id))).toEqual([['1-0', '1-1']]);
      expect(c.queue.map((f) => f.id)).toEqual(['1-2', '1-3']);
      expect(c.queuedBytes).toBe(3 + 4);
      t.held = 0;
      t.perWrite = 0;
      c.flush();
      expect(t.written.map((f) => f.id)).toEqual(['1-0', '1-1', '1-2', '1-3']);
    });

    it('a closed stream drops them', async () => {
      const t = new BatchingTransport();
      const c = new StreamClient('s1', account, filter, t);
      live(c);
      await tick();
      c.defer([frame(0)]);
      c.close();
      expect(c.deliver()).toBe(0);
      expect(t.written).toEqual([]);
    });
  });

  describe('viewKey', () => {
    const books = (ids: string[], isDefault = false) => ({ books: ids, all: false, isDefault, has: (b: string) => ids.includes(b) });
    const base = (over: Partial<StreamFilter> = {}): StreamFilter => ({
      channels: new Set(['odds', 'opportunities'] as const),
      kinds: new Set(['arbitrage', 'ev']),
      books: books(['draftkings', 'fanduel']),
      thresholds: { min_ev: 2, min_profit: 0.5 },
      ...over,
    });

    it('is the same for equal filters and tier, whatever the order of their sets', () => {
      const other = base({
        channels: new Set(['opportunities', 'odds'] as const),
        kinds: new Set(['ev', 'arbitrage']),
        books: books(['fanduel', 'draftkings']),
        thresholds: { min_profit: 0.5, min_ev: 2 },
      });
      expect(viewKey(other, 'pro')).toBe(viewKey(base(), 'pro'));
    });

    it.each<[string, Partial<StreamFilter>]>([
      ['channels', { channels: new Set(['odds'] as const) }],
      ['kinds', { kinds: new Set(['arbitrage']) }],
      ['books', { books: books(['draftkings']) }],
      ['the default book set', { books: books(['draftkings', 'fanduel'], true) }],
      ['sports', { sports: new Set(['basketball']) }],
      ['leagues', { leagues: new Set(['nba']) }],
      ['markets', { markets: new Set(['moneyline']) }],
      ['events', { events: new Set(['ev_1']) }],
      ['live', { live: true }],
      ['pre-game only', { live: false }],
      ['thresholds', { thresholds: { min_ev: 3, min_profit: 0.5 } }],
    ])('differs when %s differ', (_what, over) => {
      expect(viewKey(base(over), 'pro')).not.toBe(viewKey(base(), 'pro'));
    });

    it('differs by tier (the tier picks the detection scope), and follows a replaced filter', () => {
      expect(viewKey(base(), 'sharp')).not.toBe(viewKey(base(), 'pro'));
      const c = new StreamClient('s9', account, base(), new FakeTransport());
      const before = c.viewKey;
      expect(before).toBe(viewKey(base(), 'sharp'));
      c.refilter(base({ leagues: new Set(['nba']) }));
      expect(c.viewKey).toBe(viewKey(base({ leagues: new Set(['nba']) }), 'sharp'));
      expect(c.viewKey).not.toBe(before);
    });
  });
});
