import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FeatureDef } from '../../src/common/auth/access-policy.js';
import { AccessPolicy } from '../../src/common/auth/access-policy.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { shortHash } from '../../src/domain/normalise.js';
import type { OddsRow } from '../../src/domain/odds-row.js';
import type { Quote } from '../../src/domain/types.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import { DetectionModule } from '../../src/modules/detection/detection.module.js';
import type { Detector, Json, OpportunityRecord, PresentView, Reads, StreamNames } from '../../src/modules/detection/detector.js';
import { groupInfo, guardsOf, usable, type DetectContext } from '../../src/modules/detection/group-info.js';
import { bestPerOutcome, type BookFilter } from '../../src/modules/detection/market-groups.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { OPPORTUNITY_TYPES } from '../../src/modules/opportunity-types.js';
import { SseRecorder } from '../support/sse.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { WsClient } from '../support/ws-client.js';

/**
 * Adding an opportunity type is one folder and one registration line (README "Extending"). This test is that
 * folder: a toy type, "long shots" (the best price of an outcome of a two-way market at decimal 3.0 or more),
 * written against the engine's public API only, and registered by adding its module to the service's list.
 * Nothing in src names it, yet the engine detects and lists it, the stream sends it under its own event names,
 * the WebSocket accepts its channel, the access policy gates it by its declared tier, /metrics counts it and the
 * API document's tables show it.
 */

interface LongshotRecord extends OpportunityRecord {
  kind: 'longshots';
  row: OddsRow;
}

/** An outcome of a two-way market whose best price in scope is at decimal 3.0 or more. */
function detectLongshots(ctx: DetectContext, groupKey: string, inScope: BookFilter): LongshotRecord[] {
  const g = groupInfo(ctx, groupKey);
  const best = g && bestPerOutcome(g.rows, g.outcomes, usable(ctx, g, inScope));
  if (!g || !best) return [];
  return best.legs
    .filter((row) => row.decimal >= 3)
    .map((row) => ({
      kind: 'longshots',
      id: shortHash(['longshot', groupKey, row.selectionType]),
      source: groupKey,
      eventId: row.eventId,
      marketType: row.marketType,
      detectedAt: ctx.now,
      updatedAt: ctx.now,
      guards: guardsOf(g, [row]),
      row,
    }));
}

@Injectable()
class LongshotDetector implements Detector<LongshotRecord> {
  readonly kind = 'longshots';
  readonly reads: Reads = 'two_way';
  readonly perScope = false;
  readonly feature: FeatureDef = { name: 'longshots', label: 'Long shots', title: 'Long shots', fromTier: 'pro' };
  readonly stream: StreamNames = {
    channel: 'longshots',
    type: 'longshot',
    detected: 'longshot:detected',
    expired: 'longshot:expired',
    expiredAt: false,
  };
  readonly gauge = { name: 'opportunities_longshots', help: 'Live long shots' };

  detect(ctx: DetectContext, source: string, inScope: BookFilter): LongshotRecord[] {
    return detectLongshots(ctx, source, inScope);
  }

  present(r: LongshotRecord, _view: PresentView): Json {
    return { id: r.id, event_id: r.eventId, sportsbook: r.row.sportsbook, selection: r.row.selection, odds_decimal: r.row.decimal };
  }

  rows(r: LongshotRecord): readonly OddsRow[] {
    return [r.row];
  }

  signature(r: LongshotRecord): unknown {
    return [r.row.sportsbook, r.row.decimal];
  }
}

@Module({ imports: [DetectionModule], providers: [LongshotDetector] })
class LongshotsModule implements OnModuleInit {
  constructor(
    private readonly engine: DetectionEngine,
    private readonly detector: LongshotDetector,
  ) {}

  onModuleInit(): void {
    this.engine.register(this.detector);
  }
}

const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
const nfl = (book: string, side: 'home' | 'away', american: number): Quote => ({
  book,
  league: 'nfl',
  homeTeam: 'Kansas City Chiefs',
  awayTeam: 'Buffalo Bills',
  startTime: KICK,
  marketType: 'moneyline',
  selection: side === 'home' ? 'Kansas City Chiefs' : 'Buffalo Bills',
  selectionType: side,
  line: null,
  price: { american },
});
const epl = (book: string, side: 'home' | 'draw' | 'away', decimal: number): Quote => ({
  book,
  league: 'epl',
  homeTeam: 'Arsenal',
  awayTeam: 'Chelsea',
  startTime: KICK,
  marketType: 'moneyline',
  selection: side === 'home' ? 'Arsenal' : side === 'away' ? 'Chelsea' : 'Draw',
  selectionType: side,
  line: null,
  price: { decimal },
});

describe('a toy opportunity type registered by one line', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const ingest = (quotes: Quote[]) => t.app.get(IngestionService).ingest({ source: 'test', quotes }, clock.now());

  beforeAll(async () => {
    t = await startTestApp({ clock, opportunityTypes: [...OPPORTUNITY_TYPES, LongshotsModule] });
    // Chiefs v Bills: the Bills' best price is DraftKings +250 (decimal 3.5), the only long shot. Arsenal v
    // Chelsea is three-way (Chelsea 4.0, the draw 3.4): a two-way reader never sees it.
    ingest([nfl('draftkings', 'home', -300), nfl('draftkings', 'away', 250), nfl('fanduel', 'home', -280), nfl('fanduel', 'away', 230)]);
    ingest([epl('draftkings', 'home', 2.0), epl('draftkings', 'draw', 3.4), epl('draftkings', 'away', 4.0)]);
  });
  afterAll(async () => {
    await t.close();
  });

  it("is listed by the engine after the service's own types, and detected on two-way markets only", () => {
    const engine = t.app.get(DetectionEngine);
    expect(engine.types().map((d) => d.kind)).toEqual(['ev', 'arbitrage', 'middles', 'low_hold', 'longshots']);
    const live = [...engine.live('longshots')!.values()] as LongshotRecord[];
    expect(live.map((r) => [r.row.sportsbook, r.row.selection, r.row.decimal])).toEqual([['draftkings', 'Buffalo Bills', 3.5]]);
    expect(engine.scopes('longshots').map((s) => s.key)).toEqual(['all']);
  });

  it('is gated by the tier it declares (config/tiers.json does not name it)', () => {
    const policy = t.app.get(AccessPolicy);
    expect(policy.requiredTierFor('longshots')).toBe('pro');
    expect(['free', 'hobby', 'pro', 'sharp', 'enterprise'].map((tier) => policy.tierHas(tier as 'pro', 'longshots'))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('is streamed under its own names: snapshot, then longshot:detected and longshot:expired', async () => {
    const sse = new SseRecorder(`${t.url}/api/v1/stream?channel=opportunities&api_key=${KEYS.pro}`, {
      events: ['longshot:detected', 'longshot:expired'],
    });
    const hobby = new SseRecorder(`${t.url}/api/v1/stream?channel=opportunities&api_key=${KEYS.hobby}`, {
      events: ['longshot:detected', 'longshot:expired'],
    });
    try {
      await sse.seen('snapshot:complete');
      await hobby.seen('snapshot:complete');
      const snap = sse
        .of('snapshot')
        .map((e) => e.data)
        .find((d) => d.kind === 'longshots');
      const id = shortHash([
        'longshot',
        (t.app.get(DetectionEngine).live('longshots')!.values().next().value as LongshotRecord).source,
        'away',
      ]);
      expect(snap).toMatchObject({ type: 'longshot', kind: 'longshots', count: 1, total: 1 });
      expect(snap.opportunities).toEqual([
        { id, event_id: expect.any(String), sportsbook: 'draftkings', selection: 'Buffalo Bills', odds_decimal: 3.5 },
      ]);
      // A hobby key's tier lacks the feature: no frame of that type at all.
      expect(hobby.of('snapshot').some((e) => e.data.kind === 'longshots')).toBe(false);

      // FanDuel moves to -400 / +300 (4.0; its own market still sound: 0.8 + 0.25 = 105%): the same long shot,
      // now at FanDuel, announced again.
      clock.advance(1000);
      ingest([nfl('fanduel', 'home', -400), nfl('fanduel', 'away', 300)]);
      const moved = await sse.next('longshot:detected');
      expect(moved.data).toEqual([
        { id, event_id: expect.any(String), sportsbook: 'fanduel', selection: 'Buffalo Bills', odds_decimal: 4 },
      ]);
      // Both books shorten the Bills below 3.0: it expires (this type's expired frames carry the ids only).
      clock.advance(1000);
      ingest([nfl('fanduel', 'home', -200), nfl('fanduel', 'away', 150), nfl('draftkings', 'away', 150)]);
      const gone = await sse.next('longshot:expired');
      expect(gone.data).toEqual({ expired: [id] });
      expect(hobby.of('longshot:detected').length + hobby.of('longshot:expired').length).toBe(0);
    } finally {
      sse.close();
      hobby.close();
    }
  });

  it("is listed in the account's features", async () => {
    const res = await fetch(`${t.url}/api/v1/account`, { headers: { 'x-api-key': KEYS.pro } });
    const features = ((await res.json()) as { data: { features: Record<string, boolean> } }).data.features;
    const keys = Object.keys(features);
    // odds and splits first, game_state and streaming last; the opportunity types in registration order, the toy
    // type after the four; other registered features (futures, closing lines) in between.
    expect([keys.slice(0, 2), keys.slice(-2)]).toEqual([
      ['odds', 'splits'],
      ['game_state', 'streaming'],
    ]);
    expect(keys.filter((k) => ['ev', 'arbitrage', 'middles', 'low_hold', 'longshots'].includes(k))).toEqual([
      'ev',
      'arbitrage',
      'middles',
      'low_hold',
      'longshots',
    ]);
    expect(keys).toEqual(expect.arrayContaining(['futures', 'closing_line']));
    expect(keys).not.toContain('deep_links_batch');
    expect(features.longshots).toBe(true);
    const hobby = await fetch(`${t.url}/api/v1/account`, { headers: { 'x-api-key': KEYS.hobby } });
    expect(((await hobby.json()) as { data: { features: Record<string, boolean> } }).data.features.longshots).toBe(false);
  });

  it('has its own WebSocket channel', async () => {
    const ws = await WsClient.connect(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${KEYS.sharp}&client_profile=spec`);
    try {
      expect(ws.frames[0]!.data.features).toMatchObject({ ev: true, arbitrage: true, middles: true, low_hold: true, longshots: true });
      ws.send({ type: 'subscribe', channels: ['longshots'] });
      const sub = await ws.seen('subscribed');
      expect(sub.data).toMatchObject({ channels: ['opportunities'], kinds: ['longshots'] });
      ws.send({ type: 'subscribe', channels: ['bets'] });
      const err = await ws.seen('error');
      expect(err.data.message).toContain('must be one of ev, arbitrage, middles, low_hold, longshots, odds, gamestate');
    } finally {
      ws.ws.close();
    }
  });

  it("is counted in /metrics and shown in the API document's tables", async () => {
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^opportunities_longshots ${t.app.get(DetectionEngine).live('longshots')!.size}$`, 'm'));
    expect(metrics).toMatch(/^opportunities_low_hold \d+$/m);
    const doc = (await (await fetch(`${t.url}/docs-json`)).json()) as { info: { description: string } };
    const text = doc.info.description;
    expect(text).toContain(
      '| Tier | Requests/min | Data delay | Max books per request | +EV | Arbitrage | Middles | Low-hold | Long shots | Game state | Streams |',
    );
    expect(text).toContain('| hobby | 120 | 0 | 5 | - | yes | - | yes | - | - | 1 |');
    expect(text).toContain('| pro | 300 | 0 | 15 | yes | yes | yes | yes | yes | - | 2 |');
    expect(text).toContain(
      '| longshots | `longshots` (pro and up) | `longshots` | `longshot:detected` / `longshot:expired` | `longshot` | - |',
    );
  });
});
