/**
 * MarketSimulator: a deterministic market of many books pricing one latent fair model per event.
 *
 * Everything happens on one discrete-event timeline (a heap of timed actions processed in time
 * order): fixtures are listed at their posting horizon, the fair model walks and jumps on news,
 * games kick off and are played (score, clock, overtime), books reprice from their own lagged
 * view with their own margin, bias, noise, rounding and line choices, suspend around scoring
 * plays, pull rungs and markets, and leave finished games. poll(now) runs the timeline up to
 * `now` and reports what changed since the previous call. The world evolves the same whatever
 * the poll times: they only decide how changes are grouped into batches.
 */

import type { Catalog } from '../../../config/catalog.js';
import type { OddsProvider, ProviderBatch } from '../../../domain/types.js';
import { BookPricing } from './book-pricing.js';
import { bookProfile } from './books.js';
import { Emitter } from './emitter.js';
import { FairValues } from './fair-values.js';
import { GameEngine } from './game-engine.js';
import { Listing } from './listing.js';
import { SplitsFeed } from './splits-feed.js';
import { assertNever } from '../../../common/assert-never.js';
import { lineSides, moneyline } from './model.js';
import { DAY, HOUR, SPLITS_EVERY, SimWorld, lockedOut, type Action } from './world.js';

/** A full-game selection as a quote names it: its event (league, teams, start) and its market, side and line. */
export interface SimSelection {
  league: string;
  homeTeam: string;
  awayTeam: string;
  startTime: number;
  marketType: string;
  selectionType: string;
  line: number | null;
  playerName?: string | null;
}

/** The world is simulated from this long before `start`, so games are in progress at start. */
const WARM_UP = 4.5 * HOUR;

export interface MarketSimulatorOptions {
  seed: number;
  /** Target number of events on the board (default 180). */
  events?: number;
  /** Scheduling horizon in days (default 7). */
  days?: number;
  /** Poll interval in ms (default 1000). */
  tickMs?: number;
  /** Simulation start, epoch ms. */
  start: number;
  /** Multiplier on the pregame rate of fair-value moves (default 1). */
  activity?: number;
  /** Main lines only (moneyline, main spread and total; no alternates, Asian handicaps or props): a backtest's lighter world. */
  lean?: boolean;
}

/**
 * The provider: owns the timeline and dispatches each action to the part that handles it (listing, fair values,
 * game engine, book pricing, splits feed); the emitter reports the result.
 */
export class MarketSimulator implements OddsProvider {
  readonly name = 'simulator';
  readonly intervalMs: number;

  private readonly w: SimWorld;
  private readonly fair: FairValues;
  private readonly books: BookPricing;
  private readonly listing: Listing;
  private readonly game: GameEngine;
  private readonly splits: SplitsFeed;
  private readonly emitter: Emitter;
  /** The instant the world's warm-up runs up to (the options' `start`), and the warm-up under way (see warmUp). */
  private readonly startAt: number;
  private warming: Generator<void> | null = null;

  constructor(catalog: Catalog, options: MarketSimulatorOptions) {
    const seed = options.seed >>> 0;
    this.intervalMs = options.tickMs ?? 1000;
    const profiles = catalog.listedBooks().map((b, i) => bookProfile(b, i));
    const start = options.start;
    const t0 = start - WARM_UP;
    const w = new SimWorld(seed, Math.max(0.05, options.activity ?? 1), profiles, t0);
    w.lean = options.lean ?? false;
    this.w = w;
    this.fair = new FairValues(w);
    this.books = new BookPricing(w);
    const targetEvents = Math.max(1, options.events ?? 180);
    const days = Math.max(1, options.days ?? 7);
    this.listing = new Listing(catalog, w, this.fair, this.books, targetEvents, days, t0 - DAY);
    this.game = new GameEngine(w, this.fair, this.books);
    this.splits = new SplitsFeed(w);
    this.emitter = new Emitter(w, this.name);
    this.listing.schedule(start, t0);
    this.startAt = start;
  }

  /**
   * Runs the warm-up (unless done) and catches up to `now`, in turns of about 20 ms (the service anchors the world
   * to a 10-minute window: up to 10 minutes to simulate), so that the server answers meanwhile. The world evolves
   * exactly as when start() or poll() runs it at once, also when one of them is called between two turns.
   */
  async prepare(now: number, turnMs = 20): Promise<void> {
    await inTurns((this.warming ??= this.warmUp()), turnMs);
    await inTurns(this.run(now), turnMs);
  }

  start(now: number): ProviderBatch {
    this.warmUpAtOnce();
    if (now > this.w.now) this.advance(now);
    return this.emitter.snapshot(now);
  }

  poll(now: number): ProviderBatch {
    this.warmUpAtOnce();
    if (now > this.w.now) this.advance(now);
    return this.emitter.changes(now);
  }

  stop(): void {
    // nothing to release
  }

  /** Number of events currently on the board (listed, not yet removed). */
  eventCount(): number {
    this.warmUpAtOnce();
    return this.w.events.size;
  }

  /**
   * The simulator's own probability, now, that a full-game selection wins (a whole line's push left out: the
   * probability of winning given no push): moneyline, spread and total from the event's current fair model
   * (the truth books price from with their lag, margin, bias and noise). Null for what it does not model here
   * (props, quarter lines, other markets) and for an event it no longer holds or that has ended.
   */
  trueProbability(sel: SimSelection): number | null {
    if (sel.playerName) return null;
    this.warmUpAtOnce();
    let ev = null;
    for (const e of this.w.events.values())
      if (e.startTime === sel.startTime && e.home === sel.homeTeam && e.away === sel.awayTeam && e.league.id === sel.league) ev = e;
    if (!ev || ev.status === 'ended' || ev.stale) return null;
    const f = ev.fair;
    if (sel.marketType === 'moneyline') {
      const [h, d, a] = moneyline(f, 0, 0);
      const p = sel.selectionType === 'home' ? h : sel.selectionType === 'away' ? a : sel.selectionType === 'draw' && f.threeWay ? d : null;
      return p !== null && p > 0 && p < 1 ? p : null;
    }
    if (sel.line === null || Math.abs((sel.line * 4) % 2) === 1) return null;
    if (sel.marketType === 'point_spread' && f.margin) {
      // A home -3.5 wins when the margin is above 3.5 (the threshold is minus the home line); an away +3.5 when below.
      if (sel.selectionType === 'home') return lineSides(f.margin, -sel.line, 0)[0];
      if (sel.selectionType === 'away') return lineSides(f.margin, sel.line, 0)[1];
    }
    if (sel.marketType === 'total_points' && f.total) {
      if (sel.selectionType === 'over') return lineSides(f.total, sel.line, 0)[0];
      if (sel.selectionType === 'under') return lineSides(f.total, sel.line, 0)[1];
    }
    return null;
  }

  /** The warm-up where prepare() did not run it, or the rest of it where prepare() is running it: all of it now. */
  private warmUpAtOnce(): void {
    for (const _ of (this.warming ??= this.warmUp()));
  }

  /**
   * The warm-up, one step at a time (each a handful of actions or one event): the world's hours before `startAt`,
   * then, at it, books price every event (live-only books leave games in progress) and splits begin.
   */
  private *warmUp(): Generator<void> {
    yield* this.run(this.startAt);
    const w = this.w;
    const now = this.startAt;
    w.warm = false;
    for (const ev of w.events.values()) {
      yield;
      if (ev.stale) this.fair.refreshFair(ev, true, true);
      for (const be of ev.books) {
        if (be.gone) continue;
        if (ev.status === 'live' && !be.p.live) {
          this.books.dropBook(be, false);
          continue;
        }
        this.books.price(be, ev.fair, now, true);
      }
      w.heap.push(now + w.rng.range(0, SPLITS_EVERY), { k: 'splits', ev });
    }
    w.dirtyEvents.clear();
    w.pendingEventRemovals = [];
    w.pendingSplits = [];
  }

  // ---------------------------------------------------------------- the timeline

  /** The timeline up to `to`, an action per step. */
  private *run(to: number): Generator<void> {
    const w = this.w;
    while (w.heap.peekTime() <= to) {
      const next = w.heap.pop();
      if (!next) break;
      w.now = next.time;
      this.handle(next.item, next.time);
      yield;
    }
    if (to > w.now) w.now = to;
  }

  /** The timeline up to `to`, at once. */
  private advance(to: number): void {
    for (const _ of this.run(to));
  }

  private handle(a: Action, t: number): void {
    switch (a.k) {
      case 'list':
        this.listing.list(a.fx, t);
        return;
      case 'cal':
        this.listing.onCalendar(t);
        return;
      case 'step':
        this.fair.onStep(a.ev, t);
        return;
      case 'pstep':
        this.fair.onPropStep(a.ev, t);
        return;
      case 'kick':
        this.game.onKickoff(a.ev, t);
        return;
      case 'seg':
        this.game.onSegmentEnd(a.ev, a.token, t);
        return;
      case 'play':
        this.game.onPlay(a.ev, a.token, t);
        return;
      case 'tick':
        this.game.onTick(a.ev, t);
        return;
      case 'tgame':
        this.game.onTennisGame(a.ev, t);
        return;
      case 'reprice': {
        const be = a.be;
        if (be.gone || be.suspended || lockedOut(be) || a.fair.seq <= be.appliedSeq || be.ev.status === 'ended') return;
        this.books.price(be, a.fair, t, false);
        return;
      }
      case 'suspend':
        if (a.be.gone || a.token !== a.be.token) return;
        this.books.suspendRows(a.be);
        return;
      case 'reopen': {
        const be = a.be;
        if (be.gone || a.token !== be.token || be.ev.status === 'ended' || lockedOut(be)) return;
        be.suspended = false;
        this.books.price(be, be.ev.fair, t, true);
        return;
      }
      case 'leave':
        this.game.onLeave(a.be);
        return;
      case 'splits':
        this.splits.onSplits(a.ev, t);
        return;
      default:
        assertNever(a);
    }
  }
}

/** Takes the steps in turns of about `ms` of work, each followed by a turn of the event loop. */
async function inTurns(steps: Iterable<void>, ms = 20): Promise<void> {
  let until = performance.now() + ms;
  for (const _ of steps) {
    if (performance.now() < until) continue;
    await new Promise((r) => setImmediate(r));
    until = performance.now() + ms;
  }
}
