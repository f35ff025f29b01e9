/**
 * The emitter: turns the world's state into provider batches. start() reports the whole board; poll() reports
 * what changed since the previous call (new and repriced rows, withdrawn rows, books leaving events, event
 * status and game state, splits), each row with its book-native ids.
 */

import type { EventUpdate, GameState, ProviderBatch, Quote, QuoteKey } from '../../../domain/types.js';
import { gameState } from './game.js';
import { priceInput } from './pricing.js';
import { hashString } from './rng.js';
import { simulatedMarketData } from './volume.js';
import type { Row, SimEvent, SimWorld } from './world.js';

/** Live games report their state at least this often (the game_state `stale` flag trips after 10 s). */
const GAME_STATE_REFRESH_MS = 5_000;

export class Emitter {
  /** When each live game last reported its state. */
  private readonly stateAt = new WeakMap<SimEvent, number>();

  constructor(
    private readonly w: SimWorld,
    private readonly source: string,
  ) {}

  /** Every current price and event; clears the pending changes. */
  snapshot(now: number): ProviderBatch {
    const w = this.w;
    const quotes: Quote[] = [];
    for (const ev of w.events.values()) {
      for (const be of ev.books) {
        if (be.gone) continue;
        for (const r of be.rows.values()) {
          quotes.push(this.quoteOf(r));
          markEmitted(r);
        }
      }
    }
    w.dirty.clear();
    const events: EventUpdate[] = [];
    for (const ev of w.events.values()) if (!ev.removed) events.push(this.eventUpdate(ev, now));
    w.dirtyEvents.clear();
    w.pendingEventRemovals = [];
    const splits = w.pendingSplits;
    w.pendingSplits = [];
    return { source: this.source, quotes, events, splits, confirms: w.profiles.map((p) => p.id) };
  }

  /** What changed since the previous batch. */
  changes(now: number): ProviderBatch {
    const w = this.w;
    const quotes: Quote[] = [];
    const removed: Row[] = [];
    for (const r of w.dirty) {
      if (r.be.gone) continue;
      if (r.dead) {
        if (r.emitted) removed.push(r);
        continue;
      }
      if (!r.emitted || r.pv !== r.epv || r.active !== r.eactive || r.live !== r.elive) {
        quotes.push(this.quoteOf(r));
        markEmitted(r);
      }
    }
    w.dirty.clear();
    const batch: ProviderBatch = { source: this.source, quotes };
    const removals = removalsOf(removed, quotes);
    if (removals.length > 0) batch.removals = removals;
    if (w.pendingEventRemovals.length > 0) {
      batch.eventRemovals = w.pendingEventRemovals;
      w.pendingEventRemovals = [];
    }
    // Live games report their state (clock) at least every GAME_STATE_REFRESH_MS, between scoring plays too.
    for (const ev of w.events.values())
      if (ev.status === 'live' && !ev.removed && now - (this.stateAt.get(ev) ?? 0) >= GAME_STATE_REFRESH_MS) w.dirtyEvents.add(ev);
    if (w.dirtyEvents.size > 0) {
      batch.events = [...w.dirtyEvents].map((ev) => this.eventUpdate(ev, now));
      w.dirtyEvents.clear();
    }
    if (w.pendingSplits.length > 0) {
      batch.splits = w.pendingSplits;
      w.pendingSplits = [];
    }
    // The simulated feeds deliver changes only: a poll confirms every price it did not change.
    batch.confirms = w.profiles.map((p) => p.id);
    return batch;
  }

  private quoteOf(r: Row): Quote {
    const be = r.be;
    if (r.marketId === null || r.selectionId === null) {
      const player = r.player !== null ? `-${hashString(r.player).toString(36)}` : '';
      const line = r.line !== null && r.marketType !== 'point_spread' && r.marketType !== 'asian_handicap' ? `-${r.line}` : '';
      r.marketId = `${be.ext}-${r.marketType}${player}${line}`;
      r.selectionId = `${r.marketId}-${r.selType}${r.line !== null ? `-${r.line}` : ''}`;
    }
    const ev = be.ev;
    const prop = r.player !== null;
    const market = be.p.kind === 'exchange' || be.p.kind === 'prediction' ? simulatedMarketData(r.selectionId, r.moves, be.p.kind) : null;
    // One literal of one shape for every quote (keyOf's fields first; a field a quote lacks is undefined, which
    // JSON leaves out): the pipeline reads tens of thousands of them in a snapshot. Written out, not spread from
    // keyOf: a spread made the snapshot of 63,000 quotes take 1.8 s instead of 0.25 s.
    return {
      book: be.p.id,
      league: ev.league.id,
      homeTeam: ev.home,
      awayTeam: ev.away,
      startTime: ev.startTime,
      marketType: r.marketType,
      period: 'game',
      selection: r.selection,
      selectionType: r.selType,
      line: r.line,
      playerName: prop ? r.player : undefined,
      playerTeam: prop ? r.team : undefined,
      statCategory: prop ? r.stat : undefined,
      price: priceInput(r.pv, be.p.format),
      isLive: r.live,
      isActive: r.active,
      externalEventId: be.ext,
      marketId: r.marketId,
      selectionId: r.selectionId,
      volume: market?.volume,
      volume24h: market?.volume24h,
      openInterest: market?.openInterest,
    };
  }

  private eventUpdate(ev: SimEvent, now: number): EventUpdate {
    if (ev.status === 'live') this.stateAt.set(ev, now);
    const u: EventUpdate = { league: ev.league.id, homeTeam: ev.home, awayTeam: ev.away, startTime: ev.startTime, status: ev.status };
    if (ev.game) {
      const gs: GameState = gameState(ev.league, ev.game, Math.min(now, this.w.now), ev.fair.pHomeML);
      u.gameState = gs;
    }
    return u;
  }
}

/** Removals for withdrawn rows, except those re-posted under the same key in the same batch. */
function removalsOf(removed: Row[], quotes: Quote[]): QuoteKey[] {
  if (removed.length === 0) return [];
  const posted = new Set<string>();
  for (const q of quotes)
    posted.add(`${q.externalEventId ?? ''}|${q.marketType}|${q.line ?? 'null'}|${q.selectionType}|${q.playerName ?? ''}`);
  const removals: QuoteKey[] = [];
  for (const r of removed) {
    if (!posted.has(`${r.be.ext}|${r.lk}`)) removals.push(keyOf(r));
  }
  return removals;
}

function keyOf(r: Row): QuoteKey {
  const ev = r.be.ev;
  const k: QuoteKey = {
    book: r.be.p.id,
    league: ev.league.id,
    homeTeam: ev.home,
    awayTeam: ev.away,
    startTime: ev.startTime,
    marketType: r.marketType,
    period: 'game',
    selection: r.selection,
    selectionType: r.selType,
    line: r.line,
  };
  if (r.player !== null) {
    k.playerName = r.player;
    k.playerTeam = r.team;
    k.statCategory = r.stat;
  }
  return k;
}

function markEmitted(r: Row): void {
  r.emitted = true;
  r.epv = r.pv;
  r.eactive = r.active;
  r.elive = r.live;
}
