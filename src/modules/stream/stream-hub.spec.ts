import { beforeEach, describe, expect, it } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import type { Account } from '../../common/auth/account.js';
import { InProcessBus } from '../../common/bus/in-process-bus.js';
import { ManualClock } from '../../common/time/clock.js';
import { Catalog } from '../../config/catalog.js';
import type { AppConfig } from '../../config/env.js';
import { loadTiers } from '../../config/tiers.js';
import type { ChangeSet, OddsRow } from '../../domain/odds-row.js';
import type { Quote } from '../../domain/types.js';
import type { BoardService } from '../board/board.service.js';
import { Jobs } from '../cluster/jobs.service.js';
import type { Leadership } from '../cluster/leadership.service.js';
import { OddsBoard } from '../board/odds-board.js';
import { refOf, type DetectionEngine } from '../detection/detection.engine.js';
import type { Detector, Json, OpportunityRecord } from '../detection/detector.js';
import { IngestionPipeline } from '../ingestion/pipeline.js';
import { OddsItemBuilder } from '../odds/odds-item.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import type { Frame, StreamFilter, Transport } from './stream-client.js';
import { MemoryStreamCaps } from './stream-caps.js';
import { SharedStreamLog } from './stream-log.js';
import { parseLastEventId, StreamHub } from './stream-hub.js';
import { ODDS_TOPIC, OPPORTUNITIES_TOPIC, type OpportunityEvent } from '../../domain/topics.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';

/**
 * The stream hub on its own: a real board fed by the real pipeline, an in-process bus, and an opportunity type
 * of the test's own (a stub engine holding its records). What each stream receives is worked out from its filter.
 */

const catalog = new Catalog();
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const ACCOUNT: Account = { keyId: 'key_hub', accountId: 'acct_hub', name: null, tier: 'enterprise', arbitrageEnabled: true };

interface ToyRecord extends OpportunityRecord {
  row: OddsRow;
  score: number;
}

/** A toy type: one record per price, its `score` held to the stream's min_ev. */
const toy: Detector<ToyRecord> = {
  kind: 'toy',
  reads: 'n_way',
  perScope: false,
  feature: { name: 'toy', label: 'Toys', fromTier: 'free' },
  stream: {
    channel: 'toy',
    type: 'toy',
    detected: 'toy:detected',
    expired: 'toy:expired',
    expiredAt: true,
    threshold: { param: 'min_ev', value: (item) => Number(item.score) },
  },
  gauge: { name: 'toys', help: 'toys' },
  detect: () => [],
  present: (r): Json => ({ id: r.id, book: r.row.sportsbook, score: r.score }),
  rows: (r) => [r.row],
  signature: (r) => [r.row.decimal, r.score],
};

const nfl = (
  book: string,
  side: 'home' | 'away',
  american: number,
  teams: [string, string] = ['Kansas City Chiefs', 'Buffalo Bills'],
): Quote => ({
  book,
  league: 'nfl',
  homeTeam: teams[0],
  awayTeam: teams[1],
  startTime: KICK,
  marketType: 'moneyline',
  selection: side === 'home' ? teams[0] : teams[1],
  selectionType: side,
  line: null,
  price: { american },
});

function recorder(): { frames: Frame[]; closed: unknown[]; transport: Transport } {
  const frames: Frame[] = [];
  const closed: unknown[] = [];
  return {
    frames,
    closed,
    transport: {
      write: (f) => (frames.push(f), true),
      buffered: () => 0,
      onDrain: () => undefined,
      close: (reason) => void closed.push(reason ?? null),
      onGone: () => undefined,
    },
  };
}

describe('stream hub', () => {
  let board: OddsBoard;
  let pipeline: IngestionPipeline;
  let bus: InProcessBus;
  let clock: ManualClock;
  let policy: AccessPolicy;
  let hub: StreamHub;
  let records: Map<string, ToyRecord>;
  let seq: number;

  beforeEach(() => {
    board = new OddsBoard();
    pipeline = new IngestionPipeline(catalog, board);
    bus = new InProcessBus();
    clock = new ManualClock(NOW);
    policy = new AccessPolicy(loadTiers(), catalog);
    records = new Map();
    seq = 1_795_000_000_000_000;
    const engine = {
      types: () => [toy],
      detector: (kind: string) => (kind === 'toy' ? toy : undefined),
      record: (_kind: string, _scope: string, id: string) => records.get(id),
      live: () => ({ values: () => records.values() }),
      // The pro tier's opportunities come from a detection scope of its own (its default books).
      scopeFor: (_kind: string, tier: string) => (tier === 'pro' ? 'pro_default' : 'all'),
    } as unknown as DetectionEngine;
    hub = new StreamHub(
      bus,
      { board } as BoardService,
      engine,
      new OddsItemBuilder(catalog, new RefBlocks(catalog)),
      policy,
      clock,
      new Jobs(clock, new SchedulerRegistry(), { isLeader: true } as Leadership, { schedulers: false } as AppConfig),
      new MetricsService(),
      new MemoryStreamCaps(),
      new SharedStreamLog(null),
      { isLeader: true } as Leadership,
    );
    hub.onModuleInit();
  });

  /** Prices through the pipeline onto the board, then on the bus as BoardService publishes them. */
  const ingest = (quotes: Quote[]): ChangeSet => {
    const { changeSet } = pipeline.process({ source: 'test', quotes }, clock.now());
    board.applyChangeSet(changeSet);
    const cs = { ...changeSet, seq: ++seq };
    bus.publish(ODDS_TOPIC, cs);
    return cs;
  };
  /** The end of the turn: what the broadcasts handed the streams has been written by then. */
  const turnEnds = () => new Promise<void>((r) => setImmediate(r));
  const rowOf = (book: string, side: string) => [...board.rows.values()].find((r) => r.sportsbook === book && r.selectionType === side)!;
  const toyOf = (row: OddsRow, score: number): ToyRecord => ({
    kind: 'toy',
    id: `toy_${row.id}`,
    source: row.groupKey,
    eventId: row.eventId,
    marketType: row.marketType,
    detectedAt: clock.now(),
    updatedAt: clock.now(),
    guards: { flagged: [], offConsensus: [], unverified: [] },
    row,
    score,
  });
  /** What the engine announces: the records are live first, as the engine holds them when it publishes. */
  const announce = (detected: ToyRecord[], expired: ToyRecord[] = []) => {
    for (const r of detected) records.set(r.id, r);
    for (const r of expired) records.delete(r.id);
    const evt: OpportunityEvent = {
      seq,
      kind: 'toy',
      scope: 'all',
      at: clock.now(),
      detected: detected.map((r) => refOf(toy, r)),
      expired: expired.map((r) => refOf(toy, r)),
      updated: [],
    };
    bus.publishLocal(OPPORTUNITIES_TOPIC, evt);
  };
  const filter = (over: Partial<StreamFilter> & { named?: string[] } = {}): StreamFilter => ({
    channels: new Set(['odds', 'opportunities']),
    kinds: new Set(['toy']),
    books: policy.resolveBooks(ACCOUNT, over.named),
    thresholds: { min_ev: 0, min_profit: 0 },
    ...over,
  });
  const open = async (f: StreamFilter, lastEventId?: string, account: Account = ACCOUNT) => {
    const r = recorder();
    const c = hub.client({ ...account }, f, r.transport);
    await hub.open(c, lastEventId);
    return { ...r, client: c, live: () => r.frames.slice(r.frames.findIndex((x) => x.event === 'snapshot:complete') + 1) };
  };

  it("delivers each change set's prices to the streams whose filter they pass, one odds:update per book", async () => {
    const all = await open(filter());
    const fanduel = await open(filter({ named: ['fanduel'] }));
    const nba = await open(filter({ leagues: new Set(['nba']) }));
    const oppsOnly = await open(filter({ channels: new Set(['opportunities']) }));
    const cs = ingest([
      nfl('draftkings', 'home', -120),
      nfl('draftkings', 'away', 100),
      nfl('fanduel', 'home', -115),
      nfl('fanduel', 'away', -105),
    ]);
    await turnEnds();
    const ids = (f: Frame) => (JSON.parse(f.data) as { odds: Array<{ id: string }> }).odds.map((o) => o.id).sort();
    const byBook = (book: string) =>
      cs.upserted
        .filter((r) => r.sportsbook === book)
        .map((r) => r.id)
        .sort();

    expect(all.live().map((f) => [f.id, f.event])).toEqual([
      [`${cs.seq}-0`, 'odds:update'],
      [`${cs.seq}-1`, 'odds:update'],
    ]);
    expect(all.live().map(ids)).toEqual([byBook('draftkings'), byBook('fanduel')]);
    expect(fanduel.live().map((f) => [f.id, f.event, JSON.parse(f.data).book])).toEqual([[`${cs.seq}-0`, 'odds:update', 'fanduel']]);
    expect(fanduel.live().map(ids)).toEqual([byBook('fanduel')]);
    expect(nba.live()).toEqual([]);
    expect(oppsOnly.live()).toEqual([]);
  });

  it("sends a type's lifecycle events to the streams that receive the type, see its books and events, and pass its threshold", async () => {
    ingest([nfl('draftkings', 'home', -120), nfl('draftkings', 'away', 100), nfl('fanduel', 'home', -115), nfl('fanduel', 'away', -105)]);
    const every = await open(filter());
    const noToy = await open(filter({ kinds: new Set() }));
    const high = await open(filter({ thresholds: { min_ev: 5, min_profit: 0 } }));
    const fanduel = await open(filter({ named: ['fanduel'] }));
    const otherEvent = await open(filter({ events: new Set(['some_other_event']) }));
    const dk = toyOf(rowOf('draftkings', 'away'), 3);
    const fd = toyOf(rowOf('fanduel', 'home'), 7);
    announce([dk, fd]);
    clock.advance(1000);
    announce([], [dk]);
    await turnEnds();
    const events = (s: { live: () => Frame[] }) => s.live().map((f) => [f.event, JSON.parse(f.data)]);

    expect(events(every)).toEqual([
      [
        'toy:detected',
        [
          { id: dk.id, book: 'draftkings', score: 3 },
          { id: fd.id, book: 'fanduel', score: 7 },
        ],
      ],
      ['toy:expired', { expired: [dk.id], timestamp: new Date(NOW + 1000).toISOString() }],
    ]);
    expect(events(noToy)).toEqual([]);
    // The threshold holds back items, never their expiry.
    expect(events(high)).toEqual([
      ['toy:detected', [{ id: fd.id, book: 'fanduel', score: 7 }]],
      ['toy:expired', { expired: [dk.id], timestamp: new Date(NOW + 1000).toISOString() }],
    ]);
    expect(events(fanduel)).toEqual([['toy:detected', [{ id: fd.id, book: 'fanduel', score: 7 }]]]);
    expect(events(otherEvent)).toEqual([]);
  });

  it('renders each view once: streams with the same filter and tier share the frame objects, other views get their own', async () => {
    ingest([nfl('draftkings', 'home', -120), nfl('draftkings', 'away', 100), nfl('fanduel', 'home', -115), nfl('fanduel', 'away', -105)]);
    const a = await open(filter());
    // The same filter built separately (other objects): the same view.
    const b = await open(filter());
    const fanduel = await open(filter({ named: ['fanduel'] }));
    const pro = await open(filter(), undefined, { ...ACCOUNT, keyId: 'key_pro', tier: 'pro' });
    const before = hub.stats.viewsRendered;
    const cs = ingest([nfl('draftkings', 'home', -125), nfl('fanduel', 'away', -110)]);
    // Three views: {a, b}, fanduel, pro: three renders for four streams.
    expect(hub.stats.viewsRendered - before).toBe(3);
    await turnEnds();
    const ids = (f: Frame) => (JSON.parse(f.data) as { odds: Array<{ id: string }> }).odds.map((o) => o.id);
    const row = (book: string) => cs.upserted.find((r) => r.sportsbook === book)!.id;
    expect(a.live().map((f) => [f.id, f.event, ids(f)])).toEqual([
      [`${cs.seq}-0`, 'odds:update', [row('draftkings')]],
      [`${cs.seq}-1`, 'odds:update', [row('fanduel')]],
    ]);
    // The very same Frame objects, so a transport encodes each once for both streams.
    expect(b.live()).toHaveLength(2);
    b.live().forEach((f, i) => expect(f).toBe(a.live()[i]));
    expect(fanduel.live().map((f) => [f.id, f.event, ids(f)])).toEqual([[`${cs.seq}-0`, 'odds:update', [row('fanduel')]]]);
    // The pro stream: the same prices (its filter is the same), rendered for its own view.
    expect(pro.live().map((f) => [f.id, f.event, ids(f)])).toEqual(a.live().map((f) => [f.id, f.event, ids(f)]));
    expect(pro.live()[0]).not.toBe(a.live()[0]);

    // Opportunities of the enterprise scope: one render for a and b (the same objects), none reach the pro view.
    const dk = toyOf(rowOf('draftkings', 'home'), 4);
    const rendered = hub.stats.viewsRendered;
    announce([dk]);
    expect(hub.stats.viewsRendered - rendered).toBe(3);
    await turnEnds();
    const opp = (s: { live: () => Frame[] }) => s.live().filter((f) => f.event === 'toy:detected');
    expect(opp(a).map((f) => [f.id, JSON.parse(f.data)])).toEqual([[`${cs.seq}-2`, [{ id: dk.id, book: 'draftkings', score: 4 }]]]);
    expect(opp(b)[0]).toBe(opp(a)[0]);
    // fanduel's stream named its books: an opportunity at draftkings is not its own; the pro scope is another.
    expect(opp(fanduel)).toEqual([]);
    expect(opp(pro)).toEqual([]);
  });

  it('a stream of a view that is at another position in the sequence gets frames with its own ids', async () => {
    const a = await open(filter());
    const b = await open(filter());
    const cs = ingest([nfl('draftkings', 'home', -120)]);
    const dk = toyOf(rowOf('draftkings', 'home'), 4);
    // b had been sent more frames of this sequence number already (as after a replay), a one.
    b.client.lastSeq = cs.seq!;
    b.client.lastK = 3;
    announce([dk]);
    await turnEnds();
    expect(a.live().map((f) => f.id)).toEqual([`${cs.seq}-0`, `${cs.seq}-1`]);
    expect(b.live().map((f) => f.id)).toEqual([`${cs.seq}-0`, `${cs.seq}-4`]);
    expect(b.live()[1]!.data).toBe(a.live()[1]!.data);
  });

  it('writes what one change set caused (its prices, then the opportunities its evaluation found) to each stream in one batch, once the turn is over', async () => {
    const batches: string[][] = [];
    let inBatch: string[] | null = null;
    const r = recorder();
    const transport: Transport = {
      ...r.transport,
      write: (f) => (inBatch?.push(`${f.id} ${f.event}`), r.transport.write(f)),
      batch: (fn) => {
        inBatch = [];
        fn();
        batches.push(inBatch);
        inBatch = null;
      },
    };
    const c = hub.client({ ...ACCOUNT }, filter(), transport);
    await hub.open(c, undefined);
    const before = r.frames.length;
    // As BoardService.apply does it: the change set is published, then detection publishes what it found, all in one turn.
    const cs = ingest([nfl('draftkings', 'home', -120), nfl('fanduel', 'away', 100)]);
    announce([toyOf(rowOf('draftkings', 'home'), 4)]);
    expect(r.frames.length).toBe(before);
    await turnEnds();
    expect(batches).toEqual([[`${cs.seq}-0 odds:update`, `${cs.seq}-1 odds:update`, `${cs.seq}-2 toy:detected`]]);
    expect(r.frames.slice(before).map((f) => f.id)).toEqual([`${cs.seq}-0`, `${cs.seq}-1`, `${cs.seq}-2`]);
    expect(hub.stats.framesSent).toBe(3);
    // The next change set, in a later turn: a write of its own.
    const next = ingest([nfl('draftkings', 'home', -125)]);
    await turnEnds();
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual([`${next.seq}-0 odds:update`]);
  });

  it('a stream without opportunities waits for no evaluation: its frames of a change set go at once, in one batch', async () => {
    const batches: string[][] = [];
    let inBatch: string[] | null = null;
    const r = recorder();
    const transport: Transport = {
      ...r.transport,
      write: (f) => (inBatch?.push(f.id), r.transport.write(f)),
      batch: (fn) => {
        inBatch = [];
        fn();
        batches.push(inBatch);
        inBatch = null;
      },
    };
    const c = hub.client({ ...ACCOUNT }, filter({ channels: new Set(['odds']) }), transport);
    await hub.open(c, undefined);
    const cs = ingest([nfl('draftkings', 'home', -120), nfl('fanduel', 'away', 100)]);
    expect(batches).toEqual([[`${cs.seq}-0`, `${cs.seq}-1`]]);
    announce([toyOf(rowOf('draftkings', 'home'), 4)]);
    await turnEnds();
    expect(batches).toHaveLength(1);
  });

  it('replays what a reconnecting stream missed after its Last-Event-ID, in the original order and with the same ids', async () => {
    const first = await open(filter());
    ingest([nfl('draftkings', 'home', -120), nfl('draftkings', 'away', 100)]);
    announce([toyOf(rowOf('draftkings', 'away'), 4)]);
    ingest([nfl('fanduel', 'home', -115), nfl('fanduel', 'away', -105)]);
    ingest([nfl('draftkings', 'home', -125), nfl('fanduel', 'away', 102)]);
    announce([toyOf(rowOf('fanduel', 'away'), 6)]);
    await turnEnds();
    const seen = first.live();
    expect(seen.map((f) => f.event)).toEqual(['odds:update', 'toy:detected', 'odds:update', 'odds:update', 'odds:update', 'toy:detected']);

    for (let k = 0; k < seen.length; k++) {
      const again = await open(filter(), seen[k]!.id);
      const connected = JSON.parse(again.frames[0]!.data) as { resumed: boolean; reconnected: boolean };
      expect(connected).toMatchObject({ resumed: true, reconnected: true });
      // No snapshot: exactly the frames after the one it had, as they were.
      expect(again.frames.slice(1)).toEqual(seen.slice(k + 1));
    }
  });

  it('sends a fresh snapshot instead when the Last-Event-ID is a snapshot frame, malformed, or no longer buffered', async () => {
    const first = await open(filter());
    ingest([nfl('draftkings', 'home', -120), nfl('draftkings', 'away', 100)]);
    const snapshotId = first.frames.find((f) => f.event === 'snapshot')!.id;
    for (const last of [snapshotId, 'garbage', `${seq - 500}-0`]) {
      const again = await open(filter(), last);
      expect(JSON.parse(again.frames[0]!.data)).toMatchObject({ resumed: false, reconnected: true });
      expect(again.frames.map((f) => f.event)).toContain('snapshot:complete');
    }
  });
});

describe('Last-Event-ID parsing', () => {
  const S = '1795000000000001';
  it.each([
    [`${S}-0`, { seq: Number(S), k: 0 }],
    [`${S}-17`, { seq: Number(S), k: 17 }],
    [` ${S}-3 `, { seq: Number(S), k: 3 }],
    // connected, heartbeat and snapshot:complete frames: everything of that sequence was sent.
    [`${S}-c`, { seq: Number(S), k: Number.POSITIVE_INFINITY }],
    [`${S}-h12`, { seq: Number(S), k: Number.POSITIVE_INFINITY }],
    [`${S}-sc`, { seq: Number(S), k: Number.POSITIVE_INFINITY }],
    ['1234567890-2', { seq: 1234567890, k: 2 }],
  ])('%s is a resume point', (raw, point) => {
    expect(parseLastEventId(raw)).toEqual(point);
  });

  it('a snapshot frame\'s id means "start over with a snapshot"', () => {
    expect(parseLastEventId(`${S}-s0`)).toBe('snapshot');
    expect(parseLastEventId(`${S}-s41`)).toBe('snapshot');
  });

  it.each([
    [undefined],
    [''],
    ['abc'],
    ['123456789-1'],
    ['123456789012345678901-1'],
    [`${S}`],
    [`${S}-`],
    [`${S}-x`],
    [`${S}-h`],
    [`${S}-1-2`],
    [`${S}-s`],
    [`-${S}-1`],
  ])('%s is not an id of ours', (raw) => {
    expect(parseLastEventId(raw)).toBeNull();
  });
});
