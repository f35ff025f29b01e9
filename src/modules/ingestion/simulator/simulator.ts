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

import type { Catalog, PlayerDef } from '../../../config/catalog.js';
import type { EventUpdate, GameState, OddsProvider, ProviderBatch, Quote, QuoteKey, SplitsInput } from '../../../domain/types.js';
import { bookProfile, type BookProfile } from './books.js';
import { Calendar, type Fixture } from './fixtures.js';
import {
  gameState,
  isPlaying,
  remainingMinutes,
  liveLines,
  liveTennis,
  newGame,
  playRates,
  segmentEnd,
  type Game,
  type PeriodGame,
  type TennisGame,
} from './game.js';
import { TimeHeap } from './heap.js';
import { Dist, lineSides, logit, moneyline, pregameLines, propOver, propSd, sigmoid, type Fair, type PropFair } from './model.js';
import { applyMargin, formatPrice, priceInput, toAmerican } from './pricing.js';
import { Rng, hashString } from './rng.js';
import { simulatedMarketData } from './volume.js';
import { clampShare, driftSplits, initialSplits, pair, type SplitsState } from './splits.js';
import { SPORTS, gameDurationMs, regulationMinutes, type LeagueConfig, type SportConfig } from './sports.js';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The world is simulated from this long before `start`, so games are in progress at start. */
const WARM_UP = 4.5 * HOUR;
/** Time scale of a book's bias drift (Ornstein-Uhlenbeck). */
const BIAS_TAU = 40 * MIN;
/** Time scale of the pregame fair value's pull back to its anchor. */
const FAIR_TAU = 24 * HOUR;
const SPLITS_EVERY = 60 * SEC;

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
}

interface PropSlot {
  player: PlayerDef;
  side: 'home' | 'away';
  stat: string;
  market: string;
  base: number;
  mean: number;
  sd: number;
  poisson: boolean;
  out: boolean;
}

interface Row {
  be: BookEvent;
  comp: 0 | 1;
  lk: string;
  marketType: string;
  selection: string;
  selType: string;
  line: number | null;
  player: string | null;
  stat: string | null;
  pv: number;
  active: boolean;
  live: boolean;
  emitted: boolean;
  epv: number;
  eactive: boolean;
  elive: boolean;
  dead: boolean;
  mark: number;
  /** Book-native ids, built on first output. */
  marketId: string | null;
  selectionId: string | null;
  /** Price moves so far (exchange and prediction-market volume grows with them). */
  moves: number;
}

interface BookEvent {
  p: BookProfile;
  ev: SimEvent;
  ext: string;
  rows: Map<string, Row>;
  /** Main spread threshold on the margin scale (home line = -spreadX), main total. */
  spreadX: number | null;
  totalX: number | null;
  propLines: Array<number | null>;
  appliedSeq: number;
  appliedLinesV: number;
  appliedPropsV: number;
  biasS: number;
  biasT: number;
  biasMl: number;
  propBias: number[];
  biasAt: number;
  suspended: boolean;
  token: number;
  spread: boolean;
  total: boolean;
  asian: boolean;
  propSlots: boolean[];
  rungs: number;
  spreadStep: number;
  totalStep: number;
  gone: boolean;
  epoch: number;
  splits: SplitsState | null;
}

interface SimEvent {
  id: number;
  fx: Fixture;
  league: LeagueConfig;
  sc: SportConfig;
  home: string;
  away: string;
  startTime: number;
  status: 'upcoming' | 'live' | 'ended';
  /** Latent expected home margin (tennis: per-game logit; MMA: fight logit) and total. */
  mu: number;
  total: number;
  anchorMu: number;
  anchorT: number;
  lastStep: number;
  props: PropSlot[];
  fair: Fair;
  stale: boolean;
  seq: number;
  linesV: number;
  propsV: number;
  openPHome: number;
  openMu: number;
  openT: number;
  game: Game | null;
  books: BookEvent[];
  removed: boolean;
  /** Retail books keep the markets suspended (the end of a basketball or football game). */
  locked: boolean;
}

/** Whether a book sits out an event's end-of-game lock (retail books do; sharp books and exchanges trade on). */
function lockedOut(be: BookEvent): boolean {
  return be.ev.locked && be.p.kind !== 'sharp' && be.p.kind !== 'exchange';
}

type Action =
  | { k: 'list'; fx: Fixture }
  | { k: 'step'; ev: SimEvent }
  | { k: 'pstep'; ev: SimEvent }
  | { k: 'kick'; ev: SimEvent }
  | { k: 'seg'; ev: SimEvent; token: number }
  | { k: 'play'; ev: SimEvent; token: number }
  | { k: 'tick'; ev: SimEvent }
  | { k: 'tgame'; ev: SimEvent }
  | { k: 'reprice'; be: BookEvent; fair: Fair }
  | { k: 'suspend'; be: BookEvent; token: number }
  | { k: 'reopen'; be: BookEvent; token: number }
  | { k: 'leave'; be: BookEvent }
  | { k: 'splits'; ev: SimEvent }
  | { k: 'cal' };

export class MarketSimulator implements OddsProvider {
  readonly name = 'simulator';
  readonly intervalMs: number;

  private readonly seed: number;
  private readonly targetEvents: number;
  private readonly days: number;
  private readonly activity: number;
  private readonly rng: Rng;
  private readonly heap = new TimeHeap<Action>();
  private readonly calendar: Calendar;
  private readonly profiles: BookProfile[];
  private readonly playersByTeam = new Map<string, PlayerDef[]>();
  private readonly events = new Map<number, SimEvent>();
  private readonly dirty = new Set<Row>();
  private readonly dirtyEvents = new Set<SimEvent>();
  private pendingEventRemovals: NonNullable<ProviderBatch['eventRemovals']> = [];
  private pendingSplits: SplitsInput[] = [];
  private threshold = 1;
  private horizonFactor = 1;
  private now: number;
  private warm = true;
  private nextEventId = 1;

  constructor(catalog: Catalog, options: MarketSimulatorOptions) {
    this.seed = options.seed >>> 0;
    this.targetEvents = Math.max(1, options.events ?? 180);
    this.days = Math.max(1, options.days ?? 7);
    this.intervalMs = options.tickMs ?? 1000;
    this.activity = Math.max(0.05, options.activity ?? 1);
    this.rng = Rng.derive(this.seed, 'market');
    this.profiles = catalog.listedBooks().map((b, i) => bookProfile(b, i));
    for (const p of catalog.players) {
      const list = this.playersByTeam.get(p.team) ?? [];
      list.push(p);
      this.playersByTeam.set(p.team, list);
    }
    const start = options.start;
    const t0 = start - WARM_UP;
    this.now = t0;
    this.calendar = new Calendar(catalog, this.seed, t0 - DAY);
    this.calendar.ensure(start + this.days * DAY + DAY);
    this.chooseThreshold(start);
    for (const fx of this.calendar.fixtures) {
      if (!this.kept(fx) || fx.startTime + gameDurationMs(fx.league) <= start) continue;
      this.heap.push(Math.max(t0, fx.startTime - this.horizonMs(fx.league)), { k: 'list', fx });
    }
    this.heap.push(start + 6 * HOUR, { k: 'cal' });
    this.advance(start);
    this.finishWarmUp(start);
  }

  /** Catches up to `now` in short turns (the world is anchored to the hour: up to an hour to simulate). */
  async prepare(now: number): Promise<void> {
    while (this.heap.peekTime() <= now) {
      const until = performance.now() + 20;
      while (this.heap.peekTime() <= now && performance.now() < until) {
        const next = this.heap.pop();
        if (!next) break;
        this.now = next.time;
        this.handle(next.item, next.time);
      }
      await new Promise((r) => setImmediate(r));
    }
    if (now > this.now) this.now = now;
  }

  start(now: number): ProviderBatch {
    if (now > this.now) this.advance(now);
    const quotes: Quote[] = [];
    for (const ev of this.events.values()) {
      for (const be of ev.books) {
        if (be.gone) continue;
        for (const r of be.rows.values()) {
          quotes.push(this.quoteOf(r));
          this.markEmitted(r);
        }
      }
    }
    this.dirty.clear();
    const events: EventUpdate[] = [];
    for (const ev of this.events.values()) if (!ev.removed) events.push(this.eventUpdate(ev, now));
    this.dirtyEvents.clear();
    this.pendingEventRemovals = [];
    const splits = this.pendingSplits;
    this.pendingSplits = [];
    return { source: this.name, quotes, events, splits, confirms: this.profiles.map((p) => p.id) };
  }

  poll(now: number): ProviderBatch {
    if (now > this.now) this.advance(now);
    const quotes: Quote[] = [];
    const removed: Row[] = [];
    for (const r of this.dirty) {
      if (r.be.gone) continue;
      if (r.dead) {
        if (r.emitted) removed.push(r);
        continue;
      }
      if (!r.emitted || r.pv !== r.epv || r.active !== r.eactive || r.live !== r.elive) {
        quotes.push(this.quoteOf(r));
        this.markEmitted(r);
      }
    }
    this.dirty.clear();
    const batch: ProviderBatch = { source: this.name, quotes };
    if (removed.length > 0) {
      const posted = new Set<string>();
      for (const q of quotes) posted.add(`${q.externalEventId ?? ''}|${q.marketType}|${q.line ?? 'null'}|${q.selectionType}|${q.playerName ?? ''}`);
      const removals: QuoteKey[] = [];
      for (const r of removed) {
        if (!posted.has(`${r.be.ext}|${r.lk}`)) removals.push(this.keyOf(r));
      }
      if (removals.length > 0) batch.removals = removals;
    }
    if (this.pendingEventRemovals.length > 0) {
      batch.eventRemovals = this.pendingEventRemovals;
      this.pendingEventRemovals = [];
    }
    if (this.dirtyEvents.size > 0) {
      batch.events = [...this.dirtyEvents].map((ev) => this.eventUpdate(ev, now));
      this.dirtyEvents.clear();
    }
    if (this.pendingSplits.length > 0) {
      batch.splits = this.pendingSplits;
      this.pendingSplits = [];
    }
    // The simulated feeds deliver changes only: a poll confirms every price it did not change.
    batch.confirms = this.profiles.map((p) => p.id);
    return batch;
  }

  stop(): void {
    // nothing to release
  }

  /** Number of events currently on the board (listed, not yet removed). */
  eventCount(): number {
    return this.events.size;
  }

  // ---------------------------------------------------------------- calendar and listing

  private horizonMs(league: LeagueConfig): number {
    return Math.min(league.horizonH * this.horizonFactor, this.days * 24) * HOUR;
  }

  private kept(fx: Fixture): boolean {
    return fx.forced || fx.u <= this.threshold;
  }

  /** Picks the posting-horizon factor and the thinning threshold so that ~targetEvents are listed at start. */
  private chooseThreshold(start: number): void {
    const visible = (): Fixture[] =>
      this.calendar.fixtures.filter((f) => f.startTime - this.horizonMs(f.league) <= start && f.startTime + gameDurationMs(f.league) > start);
    let vis = visible();
    while (vis.length < this.targetEvents && this.horizonFactor < 8) {
      this.horizonFactor += 0.25;
      vis = visible();
    }
    // a small cushion: some games in progress finish before the start (early finishes, short matches)
    const want = Math.ceil(this.targetEvents * 1.03);
    if (vis.length > want) {
      const us = vis.map((f) => f.u).sort((a, b) => a - b);
      this.threshold = us[want - 1] ?? 1;
    }
    const live = vis.filter((f) => f.startTime <= start - MIN && this.kept(f));
    const sports = new Set(live.map((f) => f.league.sport));
    if (live.length < 6 || sports.size < 3) this.calendar.forceLive(start, live, 6, 3);
  }

  private onCalendar(t: number): void {
    const added = this.calendar.ensure(t + this.days * DAY + DAY);
    for (const fx of added) {
      if (this.kept(fx)) this.heap.push(Math.max(t, fx.startTime - this.horizonMs(fx.league)), { k: 'list', fx });
    }
    this.heap.push(t + 6 * HOUR, { k: 'cal' });
  }

  private list(fx: Fixture, t: number): void {
    const league = fx.league;
    const sc = SPORTS[league.sport];
    const rng = this.rng;
    const diff = (fx.home.rating - fx.away.rating) / league.eloPerPoint;
    const mu = diff + league.homeAdv + rng.normal() * league.formSd;
    const total = league.avgTotal > 0 ? Math.max(league.avgTotal * 0.6, league.avgTotal + rng.normal() * league.totalSd) : 0;
    const props: PropSlot[] = [];
    for (const [side, team] of [
      ['home', fx.home],
      ['away', fx.away],
    ] as const) {
      for (const pl of this.playersByTeam.get(team.id) ?? []) {
        for (const [stat, market] of Object.entries(league.props)) {
          const base = pl.props[stat];
          if (base === undefined || base <= 0) continue;
          const mean = base * (1 + rng.normal() * 0.05);
          const { sd, poisson } = propSd(stat, mean);
          props.push({ player: pl, side, stat, market, base, mean, sd, poisson, out: false });
        }
      }
    }
    const ev: SimEvent = {
      id: this.nextEventId++,
      fx,
      league,
      sc,
      home: fx.home.name,
      away: fx.away.name,
      startTime: fx.startTime,
      status: 'upcoming',
      mu,
      total,
      anchorMu: mu,
      anchorT: total,
      lastStep: t,
      props,
      fair: { seq: 0, linesV: 0, propsV: 0, margin: null, total: null, pHomeML: null, threeWay: false, props: [], live: false, home: 0, away: 0 },
      stale: true,
      seq: 0,
      linesV: 0,
      propsV: 0,
      openPHome: 0.5,
      openMu: mu,
      openT: total,
      game: null,
      books: [],
      removed: false,
      locked: false,
    };
    this.refreshFair(ev, true, true);
    ev.openPHome = moneyline(ev.fair, 0, 0)[0];
    for (const p of this.profiles) {
      const cov = p.leagues.get(league.id);
      if (cov === undefined || !rng.chance(cov)) continue;
      ev.books.push(this.bookEvent(p, ev, t));
    }
    this.events.set(ev.id, ev);
    this.dirtyEvents.add(ev);
    this.heap.push(t + this.stepDelay(ev, t), { k: 'step', ev });
    if (props.length > 0) this.heap.push(t + rng.exp((6 * MIN) / this.activity), { k: 'pstep', ev });
    this.heap.push(Math.max(t, fx.startTime), { k: 'kick', ev });
    if (!this.warm) {
      for (const be of ev.books) this.price(be, ev.fair, t, true);
      this.heap.push(t + rng.range(0, SPLITS_EVERY), { k: 'splits', ev });
    }
  }

  private bookEvent(p: BookProfile, ev: SimEvent, t: number): BookEvent {
    const rng = this.rng;
    const sc = ev.sc;
    const sport = ev.league.sport;
    const lines = !p.mlOnly && sport !== 'mma';
    const hs = hashString(`${p.id}:${ev.league.id}`, this.seed);
    const spreadSteps = [...sc.spreadSteps];
    if (p.wholeLines && (sport === 'football' || sport === 'basketball')) spreadSteps.push(1.5);
    const totalSteps = [...sc.totalSteps];
    let rungs = p.rungs;
    if (rungs >= 2 && (sport === 'basketball' || sport === 'football')) rungs++;
    if (rungs > 0 && rng.chance(0.15)) rungs--;
    return {
      p,
      ev,
      ext: `${p.prefix}_${(hashString(`${ev.fx.uid}|${p.id}`, this.seed) % 9_000_000) + 1_000_000}`,
      rows: new Map(),
      spreadX: null,
      totalX: null,
      propLines: ev.props.map(() => null),
      appliedSeq: -1,
      appliedLinesV: -1,
      appliedPropsV: -1,
      biasS: rng.normal() * p.biasSd,
      biasT: rng.normal() * p.biasSd,
      biasMl: rng.normal() * p.biasMlSd,
      propBias: ev.props.map(() => rng.normal() * p.propBiasSd),
      biasAt: t,
      suspended: false,
      token: 0,
      spread: lines && rng.chance(0.95),
      total: lines && rng.chance(0.9),
      asian: p.asian && sport === 'soccer',
      propSlots: ev.props.map((s) => p.props && rng.chance(ev.league.sport === 'soccer' ? 0.45 : 0.75) && s.base > 0),
      rungs,
      spreadStep: spreadSteps[hs % spreadSteps.length] ?? 1,
      totalStep: totalSteps[(hs >>> 8) % totalSteps.length] ?? 1,
      gone: false,
      epoch: 0,
      splits: null,
    };
  }

  private finishWarmUp(now: number): void {
    this.warm = false;
    for (const ev of this.events.values()) {
      if (ev.stale) this.refreshFair(ev, true, true);
      for (const be of ev.books) {
        if (be.gone) continue;
        if (ev.status === 'live' && !be.p.live) {
          this.dropBook(be, false);
          continue;
        }
        this.price(be, ev.fair, now, true);
      }
      this.heap.push(now + this.rng.range(0, SPLITS_EVERY), { k: 'splits', ev });
    }
    this.dirtyEvents.clear();
    this.pendingEventRemovals = [];
    this.pendingSplits = [];
  }

  // ---------------------------------------------------------------- the timeline

  private advance(to: number): void {
    while (this.heap.peekTime() <= to) {
      const next = this.heap.pop();
      if (!next) break;
      this.now = next.time;
      this.handle(next.item, next.time);
    }
    this.now = to;
  }

  private handle(a: Action, t: number): void {
    switch (a.k) {
      case 'list':
        this.list(a.fx, t);
        return;
      case 'cal':
        this.onCalendar(t);
        return;
      case 'step':
        this.onStep(a.ev, t);
        return;
      case 'pstep':
        this.onPropStep(a.ev, t);
        return;
      case 'kick':
        this.onKickoff(a.ev, t);
        return;
      case 'seg':
        this.onSegmentEnd(a.ev, a.token, t);
        return;
      case 'play':
        this.onPlay(a.ev, a.token, t);
        return;
      case 'tick':
        this.onTick(a.ev, t);
        return;
      case 'tgame':
        this.onTennisGame(a.ev, t);
        return;
      case 'reprice': {
        const be = a.be;
        if (be.gone || be.suspended || lockedOut(be) || a.fair.seq <= be.appliedSeq || be.ev.status === 'ended') return;
        this.price(be, a.fair, t, false);
        return;
      }
      case 'suspend':
        if (a.be.gone || a.token !== a.be.token) return;
        this.suspendRows(a.be);
        return;
      case 'reopen': {
        const be = a.be;
        if (be.gone || a.token !== be.token || be.ev.status === 'ended' || lockedOut(be)) return;
        be.suspended = false;
        this.price(be, be.ev.fair, t, true);
        return;
      }
      case 'leave':
        this.onLeave(a.be);
        return;
      case 'splits':
        this.onSplits(a.ev, t);
        return;
    }
  }

  private stepDelay(ev: SimEvent, t: number): number {
    const h = (ev.startTime - t) / HOUR;
    const mean = h > 24 ? 20 * MIN : h > 2 ? 5 * MIN : 75 * SEC;
    return this.rng.exp(mean / this.activity);
  }

  /** Pregame random walk of the latent margin and total, with rare news jumps. */
  private onStep(ev: SimEvent, t: number): void {
    if (ev.status !== 'upcoming' || ev.removed) return;
    const rng = this.rng;
    const sc = ev.sc;
    const dt = t - ev.lastStep;
    ev.lastStep = t;
    const a = Math.exp(-dt / FAIR_TAU);
    if (rng.chance(Math.min(0.5, dt / (5 * HOUR)))) {
      // news: injury, lineup, weather... a permanent shift
      // most news is worth a point or two (NBA), now and then much more
      const big = rng.chance(0.03) ? 2 : 1;
      const sign = rng.chance(0.5) ? 1 : -1;
      const jump = sign * rng.range(0.8, 1.5) * sc.stepMu * 8 * big;
      ev.anchorMu += jump;
      ev.mu += jump;
      if (sc.stepT > 0) {
        const jt = (rng.chance(0.5) ? 1 : -1) * rng.range(0.5, 1.2) * sc.stepT * 3.5 * big;
        ev.anchorT += jt;
        ev.total += jt;
      }
    }
    ev.mu = ev.anchorMu + (ev.mu - ev.anchorMu) * a + rng.normal() * sc.stepMu;
    if (sc.stepT > 0) ev.total = Math.max(ev.league.avgTotal * 0.5, ev.anchorT + (ev.total - ev.anchorT) * a + rng.normal() * sc.stepT);
    this.refreshFair(ev, true, false);
    this.notify(ev, t);
    this.heap.push(t + this.stepDelay(ev, t), { k: 'step', ev });
  }

  /** Drift of player means; now and then a player is ruled out (books pull his props). */
  private onPropStep(ev: SimEvent, t: number): void {
    if (ev.status !== 'upcoming' || ev.removed) return;
    const rng = this.rng;
    const n = 1 + rng.int(3);
    let lines = false;
    for (let i = 0; i < n; i++) {
      const s = rng.pick(ev.props);
      if (s.out) continue;
      s.mean = Math.max(0.3, s.base + (s.mean - s.base) * 0.97 + rng.normal() * 0.012 * s.base);
    }
    if (rng.chance(0.01)) {
      const s = rng.pick(ev.props);
      if (!s.out && (ev.league.sport === 'basketball' || ev.league.sport === 'football')) {
        for (const o of ev.props) {
          if (o.player === s.player) o.out = true;
          else if (o.side === s.side) o.mean *= 1.04;
        }
        const shift = (ev.league.sport === 'basketball' ? 1.8 : 1.2) * (s.side === 'home' ? -1 : 1);
        ev.mu += shift;
        ev.anchorMu += shift;
        lines = true;
      }
    }
    this.refreshFair(ev, lines, true);
    this.notify(ev, t);
    this.heap.push(t + rng.exp((6 * MIN) / this.activity), { k: 'pstep', ev });
  }

  // ---------------------------------------------------------------- in-play

  private onKickoff(ev: SimEvent, t: number): void {
    if (ev.removed || ev.status !== 'upcoming') return;
    ev.status = 'live';
    const g = newGame(ev.league, t, this.rng);
    ev.game = g;
    for (const be of ev.books) if (!be.p.live && !be.gone) this.dropBook(be, !this.warm);
    this.refreshFair(ev, true, true);
    this.dirtyEvents.add(ev);
    this.suspendAround(ev, t, 1);
    if (g.kind === 'tennis') this.heap.push(t + this.tennisGameMs(g), { k: 'tgame', ev });
    else this.startSegment(ev, g, t);
    if (ev.sc.liveTickS > 0) this.heap.push(t + ev.sc.liveTickS * SEC, { k: 'tick', ev });
  }

  private startSegment(ev: SimEvent, g: PeriodGame, t: number): void {
    g.segStart = t;
    g.token++;
    this.heap.push(segmentEnd(g), { k: 'seg', ev, token: g.token });
    this.schedulePlay(ev, g, t);
  }

  private avgPlay(sc: SportConfig): number {
    let s = 0;
    let w = 0;
    for (const [pts, wt] of sc.plays) {
      s += pts * wt;
      w += wt;
    }
    return s / w;
  }

  private schedulePlay(ev: SimEvent, g: PeriodGame, t: number): void {
    if (!isPlaying(g) || g.ended) return;
    let rate: number;
    if (ev.league.sport === 'mma') {
      rate = 0.045 / MIN;
    } else {
      const r = playRates(ev.league, g, ev.mu, ev.total, this.avgPlay(ev.sc));
      rate = r.rh + r.ra;
    }
    if (!(rate > 0)) return;
    const at = t + this.rng.exp(1 / rate);
    if (at < segmentEnd(g)) this.heap.push(at, { k: 'play', ev, token: g.token });
  }

  private onPlay(ev: SimEvent, token: number, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'period' || g.ended || token !== g.token || ev.status !== 'live') return;
    const rng = this.rng;
    if (ev.league.sport === 'mma') {
      // a finish: KO/TKO or submission
      if (rng.chance(sigmoid(ev.mu))) g.home = 1;
      else g.away = 1;
      this.endGame(ev, t);
      return;
    }
    const r = playRates(ev.league, g, ev.mu, ev.total, this.avgPlay(ev.sc));
    const homeScores = rng.chance(r.rh / (r.rh + r.ra));
    const pts = ev.sc.plays[rng.weighted(ev.sc.plays.map(([, w]) => w))]?.[0] ?? 1;
    if (homeScores) g.home += pts;
    else g.away += pts;
    g.lastScorer = homeScores ? 'home' : 'away';
    g.lastScoreAt = t;
    this.dirtyEvents.add(ev);
    const otSudden = g.seg >= ev.league.timeline.length && (ev.league.sport === 'hockey' || ev.league.sport === 'soccer');
    if (otSudden) {
      this.endGame(ev, t);
      return;
    }
    this.refreshFair(ev, true, false);
    this.scoringPlay(ev, t);
    this.schedulePlay(ev, g, t);
  }

  private onSegmentEnd(ev: SimEvent, token: number, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'period' || g.ended || token !== g.token) return;
    const league = ev.league;
    const rng = this.rng;
    g.seg++;
    if (g.seg >= g.segs.length) {
      if (league.sport === 'mma') {
        // decision
        if (rng.chance(sigmoid(ev.mu))) g.home = 1;
        else g.away = 1;
        this.endGame(ev, t);
        return;
      }
      if (g.home === g.away && league.overtime) {
        const hockeyShootout = league.sport === 'hockey' && g.overtimes >= 1;
        const nflTie = league.id === 'nfl' && g.overtimes >= 1;
        const coinFlip = g.overtimes >= 3;
        if (hockeyShootout || coinFlip) {
          if (rng.chance(sigmoid(ev.mu))) g.home += league.sport === 'football' ? 3 : 1;
          else g.away += league.sport === 'football' ? 3 : 1;
          this.endGame(ev, t);
          return;
        }
        if (!nflTie) {
          g.segs.push(league.overtime);
          g.overtimes++;
        } else {
          this.endGame(ev, t);
          return;
        }
      } else {
        this.endGame(ev, t);
        return;
      }
    }
    this.startSegment(ev, g, t);
    this.dirtyEvents.add(ev);
    this.refreshFair(ev, true, false);
    this.checkLock(ev, t);
    this.notify(ev, t);
  }

  /** Live refresh: a little momentum in the latent values and the clock running down. */
  private onTick(ev: SimEvent, t: number): void {
    if (ev.status !== 'live' || ev.removed) return;
    const rng = this.rng;
    const sc = ev.sc;
    if (ev.league.sport === 'mma') {
      ev.mu += rng.normal() * 0.1;
      if (rng.chance(0.02)) {
        ev.mu += (rng.chance(0.5) ? 1 : -1) * rng.range(0.5, 1.2);
        this.refreshFair(ev, true, false);
        this.suspendAround(ev, t, 1);
      } else {
        this.refreshFair(ev, true, false);
        this.notify(ev, t);
      }
    } else {
      ev.mu += rng.normal() * sc.stepMu * 0.5;
      ev.total = Math.max(ev.league.avgTotal * 0.5, ev.total + rng.normal() * sc.stepT * 0.5);
      this.refreshFair(ev, true, false);
      this.notify(ev, t);
    }
    this.dirtyEvents.add(ev);
    this.checkLock(ev, t);
    this.heap.push(t + sc.liveTickS * SEC, { k: 'tick', ev });
  }

  private tennisGameMs(g: TennisGame): number {
    const tiebreak = g.home === 6 && g.away === 6;
    return this.rng.range(tiebreak ? 7 : 3, tiebreak ? 11 : 6) * MIN;
  }

  private onTennisGame(ev: SimEvent, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'tennis' || g.ended || ev.status !== 'live') return;
    const rng = this.rng;
    ev.mu += rng.normal() * 0.02;
    if (rng.chance(sigmoid(ev.mu))) g.home++;
    else g.away++;
    let setOver = false;
    const h = g.home;
    const a = g.away;
    if ((h >= 6 && h - a >= 2) || (a >= 6 && a - h >= 2) || h === 7 || a === 7) {
      g.sets.push([h, a]);
      g.home = 0;
      g.away = 0;
      setOver = true;
      const won = g.sets.filter(([x, y]) => x > y).length;
      if (won === 2 || g.sets.length - won === 2) {
        this.endGame(ev, t);
        return;
      }
    }
    this.dirtyEvents.add(ev);
    this.refreshFair(ev, true, false);
    if (setOver) this.suspendAround(ev, t, 1);
    else this.scoringPlay(ev, t);
    this.heap.push(t + this.tennisGameMs(g) + (setOver ? 2 * MIN : 0), { k: 'tgame', ev });
  }

  private endGame(ev: SimEvent, t: number): void {
    ev.status = 'ended';
    if (ev.game) ev.game.ended = true;
    this.dirtyEvents.add(ev);
    if (this.warm) {
      this.removeEvent(ev);
      return;
    }
    let remaining = 0;
    for (const be of ev.books) {
      if (be.gone) continue;
      remaining++;
      this.suspendRows(be);
      this.heap.push(t + this.rng.range(3, 40) * SEC, { k: 'leave', be });
    }
    if (remaining === 0) this.removeEvent(ev);
  }

  private onLeave(be: BookEvent): void {
    if (be.gone) return;
    this.dropBook(be, true);
    if (be.ev.books.every((b) => b.gone)) this.removeEvent(be.ev);
  }

  private removeEvent(ev: SimEvent): void {
    ev.removed = true;
    for (const be of ev.books) {
      if (!be.gone) this.dropBook(be, false);
    }
    this.events.delete(ev.id);
  }

  /** The book withdraws every price of the event. */
  private dropBook(be: BookEvent, report: boolean): void {
    be.gone = true;
    for (const r of be.rows.values()) this.dirty.delete(r);
    be.rows.clear();
    if (report) {
      const ev = be.ev;
      this.pendingEventRemovals.push({ book: be.p.id, league: ev.league.id, homeTeam: ev.home, awayTeam: ev.away, startTime: ev.startTime });
    }
  }

  // ---------------------------------------------------------------- fair values

  private refreshFair(ev: SimEvent, lines: boolean, props: boolean): void {
    if (this.warm && ev.status !== 'ended') {
      ev.stale = true;
      return;
    }
    ev.stale = false;
    const prev = ev.fair;
    let margin: Dist | null = prev.margin;
    let total: Dist | null = prev.total;
    let pHomeML = prev.pHomeML;
    const g = ev.game;
    const live = ev.status === 'live' && g !== null;
    if (lines || ev.seq === 0) {
      ev.linesV++;
      if (!live || !g) {
        const r = pregameLines(ev.league, ev.mu, ev.total, ev.mu);
        margin = r.margin;
        total = r.total;
        pHomeML = r.pHomeML;
      } else if (g.kind === 'tennis') {
        const r = liveTennis(g, ev.mu);
        margin = r.margin;
        total = r.total;
        pHomeML = r.pHome;
      } else if (ev.league.sport === 'mma') {
        pHomeML = sigmoid(ev.mu);
      } else {
        const r = liveLines(ev.league, g, this.now, ev.mu, ev.total);
        margin = r.margin;
        total = r.total;
        pHomeML = null;
      }
    }
    let propFair: ReadonlyArray<PropFair | null> = prev.props;
    if (props || ev.seq === 0) {
      ev.propsV++;
      propFair = ev.props.map((s) => (s.out || live ? null : { mean: s.mean, sd: s.sd, poisson: s.poisson }));
    }
    ev.seq++;
    ev.fair = {
      seq: ev.seq,
      linesV: ev.linesV,
      propsV: ev.propsV,
      margin,
      total,
      pHomeML,
      threeWay: ev.league.sport === 'soccer',
      props: propFair,
      live,
      home: !g ? 0 : g.kind === 'period' ? g.home : g.sets.reduce((s, [h]) => s + h, g.home),
      away: !g ? 0 : g.kind === 'period' ? g.away : g.sets.reduce((s, [, a]) => s + a, g.away),
    };
  }

  /** Books reprice the event after their own delay. */
  private notify(ev: SimEvent, t: number): void {
    if (this.warm) return;
    const live = ev.status === 'live';
    const fair = ev.fair;
    for (const be of ev.books) {
      if (be.gone || be.suspended) continue;
      const [lo, hi] = live ? be.p.liveLag : be.p.lag;
      this.heap.push(t + this.rng.range(lo, hi) * SEC, { k: 'reprice', be, fair });
    }
  }

  /**
   * After a score: in sports where every score is big news (goals, touchdowns) every book
   * suspends; elsewhere (baskets, tennis games) slow books suspend more often than quick ones,
   * the others just reprice after their live delay.
   */
  private scoringPlay(ev: SimEvent, t: number): void {
    if (this.warm) return;
    const all = ev.sc.suspendOnScore >= 1 || this.remainingShare(ev, t) < 0.12;
    const fair = ev.fair;
    for (const be of ev.books) {
      if (be.gone || be.suspended) continue;
      const k = be.p.kind;
      const chance = all ? 1 : k === 'sharp' ? ev.sc.suspendOnScore : k === 'exchange' ? 0.5 : 0.97;
      if (this.rng.chance(chance)) {
        this.suspendBook(be, t);
      } else {
        const [lo, hi] = be.p.liveLag;
        this.heap.push(t + this.rng.range(lo, hi) * SEC, { k: 'reprice', be, fair });
      }
    }
  }

  /** Share of regulation still to play (0 in overtime) of a period game; 1 otherwise. */
  private remainingShare(ev: SimEvent, t: number): number {
    const g = ev.game;
    if (!g || g.kind !== 'period') return 1;
    const regSegs = ev.league.timeline.length;
    if (regSegs === 0) return 1;
    if (g.seg >= regSegs) return 0;
    return remainingMinutes(g, t, regSegs) / regulationMinutes(ev.league);
  }

  /**
   * Basketball and football: near the end of the last period the retail books keep every market suspended
   * (prices would swing on each possession) until overtime starts or the game ends; sharp books and exchanges
   * keep trading.
   */
  private checkLock(ev: SimEvent, t: number): void {
    const g = ev.game;
    const sport = ev.league.sport;
    if (!g || g.kind !== 'period' || (sport !== 'basketball' && sport !== 'football')) return;
    const seg = g.segs[g.seg];
    const lastPeriod = g.seg >= ev.league.timeline.length - 1;
    const left = seg && seg.gameMin > 0 ? seg.gameMin * (1 - (t - g.segStart) / (seg.wallMin * MIN)) : Number.POSITIVE_INFINITY;
    const lock = lastPeriod && left < (sport === 'basketball' ? 1.5 : 2);
    if (lock && !ev.locked) {
      ev.locked = true;
      if (!this.warm) for (const be of ev.books) if (!be.gone && lockedOut(be)) this.suspendRows(be);
    } else if (!lock && ev.locked) {
      if (!this.warm) for (const be of ev.books) if (!be.gone && lockedOut(be)) this.suspendBook(be, t);
      ev.locked = false;
    }
  }

  private suspendBook(be: BookEvent, t: number): void {
    be.token++;
    const delay = this.rng.range(0, be.p.kind === 'sharp' ? 0.5 : 1.2) * SEC;
    const [lo, hi] = be.p.suspend;
    this.heap.push(t + delay, { k: 'suspend', be, token: be.token });
    this.heap.push(t + delay + this.rng.range(lo, hi) * SEC, { k: 'reopen', be, token: be.token });
  }

  /** Books suspend the event's markets for a few seconds, then reopen on the new prices. */
  private suspendAround(ev: SimEvent, t: number, chance: number): void {
    if (this.warm) return;
    for (const be of ev.books) {
      if (be.gone || !this.rng.chance(chance)) continue;
      this.suspendBook(be, t);
    }
  }

  private suspendRows(be: BookEvent): void {
    be.suspended = true;
    const live = be.ev.status === 'live';
    for (const r of be.rows.values()) {
      if (r.active || r.live !== live) {
        r.active = false;
        if (be.ev.status !== 'ended') r.live = live;
        this.dirty.add(r);
      }
    }
  }

  // ---------------------------------------------------------------- pricing

  private updateBias(be: BookEvent, t: number): void {
    const dt = t - be.biasAt;
    if (dt <= 0) return;
    be.biasAt = t;
    const a = Math.exp(-dt / BIAS_TAU);
    const s = Math.sqrt(1 - a * a);
    const rng = this.rng;
    const p = be.p;
    be.biasS = be.biasS * a + s * rng.normal() * p.biasSd;
    be.biasT = be.biasT * a + s * rng.normal() * p.biasSd;
    be.biasMl = be.biasMl * a + s * rng.normal() * p.biasMlSd;
    for (let i = 0; i < be.propBias.length; i++) {
      if (be.propSlots[i]) be.propBias[i] = (be.propBias[i] as number) * a + s * rng.normal() * p.propBiasSd;
    }
  }

  private price(be: BookEvent, fair: Fair, t: number, force: boolean): void {
    this.updateBias(be, t);
    const doLines = force || fair.linesV !== be.appliedLinesV;
    const doProps = force || fair.propsV !== be.appliedPropsV;
    be.appliedSeq = fair.seq;
    be.appliedLinesV = fair.linesV;
    be.appliedPropsV = fair.propsV;
    be.suspended = false;
    if (doLines) {
      be.epoch++;
      this.priceLines(be, fair);
      this.sweep(be, 0);
    }
    if (doProps) {
      be.epoch++;
      if (!fair.live) this.priceProps(be, fair);
      this.sweep(be, 1);
    }
  }

  private sweep(be: BookEvent, comp: 0 | 1): void {
    for (const [lk, r] of be.rows) {
      if (r.comp === comp && r.mark !== be.epoch) {
        be.rows.delete(lk);
        r.dead = true;
        this.dirty.add(r);
      }
    }
  }

  private upsert(
    be: BookEvent,
    comp: 0 | 1,
    marketType: string,
    selection: string,
    selType: string,
    line: number | null,
    player: string | null,
    stat: string | null,
    q: number,
    live: boolean,
  ): void {
    const lk = `${marketType}|${line ?? 'null'}|${selType}|${player ?? ''}`;
    const pv = formatPrice(q, be.p.format);
    let r = be.rows.get(lk);
    if (!r) {
      r = {
        be,
        comp,
        lk,
        marketType,
        selection,
        selType,
        line,
        player,
        stat,
        pv,
        active: true,
        live,
        emitted: false,
        epv: 0,
        eactive: true,
        elive: false,
        dead: false,
        mark: be.epoch,
        marketId: null,
        selectionId: null,
        moves: 0,
      };
      be.rows.set(lk, r);
      this.dirty.add(r);
      return;
    }
    r.mark = be.epoch;
    if (r.pv !== pv) r.moves++;
    if (r.pv !== pv || !r.active || r.live !== live) {
      r.pv = pv;
      r.active = true;
      r.live = live;
      this.dirty.add(r);
    }
  }

  private noise(be: BookEvent): number {
    return this.rng.normal() * be.p.noise * 4;
  }

  /** The main line: kept while its price stays within the book's tolerance, else the most balanced line. */
  private chooseMain(d: Dist, bias: number, current: number | null, whole: boolean, hyst: number): number {
    const above = (x: number): number => sigmoid(logit(lineSides(d, x, 0)[0]) + bias);
    if (current !== null && Math.abs(above(current) - 0.5) <= hyst) return current;
    const m = d.mean();
    const startX = Math.floor(m) + 0.5;
    let best = startX;
    let bestErr = Number.POSITIVE_INFINITY;
    for (let k = -4; k <= 4; k++) {
      const cands = whole ? [startX + k, startX + k + 0.5] : [startX + k];
      for (const x of cands) {
        const err = Math.abs(above(x) - 0.5);
        if (err < bestErr - 1e-12) {
          bestErr = err;
          best = x;
        }
      }
    }
    return best;
  }

  private priceLines(be: BookEvent, fair: Fair): void {
    const p = be.p;
    const ev = be.ev;
    const live = fair.live;
    const mult = live ? p.liveMult : 1;
    // moneyline
    const ml = moneyline(fair, 0, be.biasMl);
    if (fair.threeWay) {
      let h = sigmoid(logit(ml[0]) + be.biasMl + this.noise(be));
      let a = sigmoid(logit(ml[2]) - be.biasMl + this.noise(be));
      let d = Math.max(0.01, 1 - h - a);
      const s = h + a + d;
      h /= s;
      a /= s;
      d /= s;
      if (h > 0.005 && a > 0.005 && d > 0.005) {
        const q = applyMargin([h, d, a], p.margin3 * mult);
        this.upsert(be, 0, 'moneyline', ev.home, 'home', null, null, null, q[0] as number, live);
        this.upsert(be, 0, 'moneyline', 'Draw', 'draw', null, null, null, q[1] as number, live);
        this.upsert(be, 0, 'moneyline', ev.away, 'away', null, null, null, q[2] as number, live);
      }
    } else {
      const h = sigmoid(logit(ml[0]) + this.noise(be));
      if (h > 0.005 && h < 0.995) {
        const q = applyMargin([h, 1 - h], p.margin * mult);
        this.upsert(be, 0, 'moneyline', ev.home, 'home', null, null, null, q[0] as number, live);
        this.upsert(be, 0, 'moneyline', ev.away, 'away', null, null, null, q[1] as number, live);
      }
    }
    if (p.mlOnly) return;
    const sport = ev.league.sport;
    const halfOnly = sport === 'soccer' || sport === 'hockey';
    // spreads (and Asian handicaps around the main spread)
    if (be.spread && fair.margin) {
      const d = fair.margin;
      let xs: Array<[number, number]>;
      if (sport === 'hockey') {
        const fav = ml[0] >= ml[2];
        be.spreadX = fav ? 1.5 : -1.5;
        xs = (fav ? [1.5, -1.5, 2.5, -2.5] : [-1.5, 1.5, -2.5, 2.5]).map((x, i) => [x, i === 0 ? 0 : i < 2 ? 1 : 2]);
      } else {
        const main = this.chooseMain(d, be.biasS, be.spreadX, p.wholeLines && !halfOnly, p.hysteresis);
        be.spreadX = main;
        xs = [];
        for (let j = -be.rungs; j <= be.rungs; j++) xs.push([main + j * be.spreadStep, Math.abs(j)]);
      }
      for (const [x, rung] of xs) {
        const [pa] = lineSides(d, x, 0);
        const a = sigmoid(logit(pa) + be.biasS + this.noise(be));
        if (a < 0.03 || a > 0.97) continue;
        const q = applyMargin([a, 1 - a], (p.margin + p.altStep * rung) * mult);
        const hl = -x + 0;
        this.upsert(be, 0, 'point_spread', ev.home, 'home', hl, null, null, q[0] as number, live);
        this.upsert(be, 0, 'point_spread', ev.away, 'away', x + 0, null, null, q[1] as number, live);
      }
      if (be.asian && be.spreadX !== null) {
        for (const off of [-0.75, -0.25, 0.25, 0.75]) {
          const x = be.spreadX + off;
          const [pa] = lineSides(d, x, 0);
          const a = sigmoid(logit(pa) + be.biasS + this.noise(be));
          if (a < 0.05 || a > 0.95) continue;
          const q = applyMargin([a, 1 - a], (p.margin + p.altStep * (Math.abs(off) > 0.5 ? 1 : 0)) * mult);
          this.upsert(be, 0, 'asian_handicap', ev.home, 'home', -x + 0, null, null, q[0] as number, live);
          this.upsert(be, 0, 'asian_handicap', ev.away, 'away', x + 0, null, null, q[1] as number, live);
        }
      }
    }
    // totals
    if (be.total && fair.total) {
      const d = fair.total;
      const main = this.chooseMain(d, be.biasT, be.totalX, p.wholeLines && !halfOnly, p.hysteresis);
      be.totalX = main;
      const scored = fair.home + fair.away;
      for (let j = -be.rungs; j <= be.rungs; j++) {
        const x = main + j * be.totalStep;
        if (x <= 0 || (live && x < scored + 0.5)) continue;
        const [po] = lineSides(d, x, 0);
        const o = sigmoid(logit(po) + be.biasT + this.noise(be));
        if (o < 0.03 || o > 0.97) continue;
        const q = applyMargin([o, 1 - o], (p.margin + p.altStep * Math.abs(j)) * mult);
        this.upsert(be, 0, 'total_points', 'Over', 'over', x, null, null, q[0] as number, live);
        this.upsert(be, 0, 'total_points', 'Under', 'under', x, null, null, q[1] as number, live);
      }
    }
  }

  private priceProps(be: BookEvent, fair: Fair): void {
    const ev = be.ev;
    for (let i = 0; i < ev.props.length; i++) {
      if (!be.propSlots[i]) continue;
      const pf = fair.props[i];
      const slot = ev.props[i];
      if (!pf || !slot) continue;
      const bias = be.propBias[i] ?? 0;
      let line = be.propLines[i] ?? null;
      if (line === null || Math.abs(propOver(pf, line, bias) - 0.5) > be.p.hysteresis + 0.02) {
        const m = pf.mean * (1 + bias);
        const base = Math.floor(m) + 0.5;
        let best = base;
        let bestErr = Number.POSITIVE_INFINITY;
        for (let k = -2; k <= 1; k++) {
          const x = base + k;
          if (x <= 0) continue;
          const err = Math.abs(propOver(pf, x, bias) - 0.5);
          if (err < bestErr) {
            bestErr = err;
            best = x;
          }
        }
        line = best;
        be.propLines[i] = line;
      }
      const o = sigmoid(logit(propOver(pf, line, bias)) + this.noise(be));
      if (o < 0.04 || o > 0.96) continue;
      const q = applyMargin([o, 1 - o], be.p.propMargin);
      this.upsert(be, 1, slot.market, 'Over', 'over', line, slot.player.name, slot.stat, q[0] as number, false);
      this.upsert(be, 1, slot.market, 'Under', 'under', line, slot.player.name, slot.stat, q[1] as number, false);
    }
  }

  // ---------------------------------------------------------------- splits

  private onSplits(ev: SimEvent, t: number): void {
    if (ev.removed || ev.status === 'ended') return;
    for (const be of ev.books) {
      if (be.gone || (be.p.id !== 'draftkings' && be.p.id !== 'circa')) continue;
      const s = this.splitsOf(be, t);
      if (s) this.pendingSplits.push(s);
    }
    this.heap.push(t + SPLITS_EVERY, { k: 'splits', ev });
  }

  private splitsOf(be: BookEvent, t: number): SplitsInput | null {
    const ev = be.ev;
    const sharp = be.p.id === 'circa';
    const pHome = moneyline(ev.fair, 0, 0)[0];
    const favHome = pHome >= 0.5;
    if (!be.splits) be.splits = initialSplits(this.rng, sharp, Math.min(1, Math.abs(pHome - 0.5) * 2.5));
    const st = be.splits;
    driftSplits(st, this.rng);
    const out: SplitsInput = { book: be.p.id, league: ev.league.id, homeTeam: ev.home, awayTeam: ev.away, startTime: ev.startTime, fetchedAt: t };
    const mlHome = be.rows.get('moneyline|null|home|');
    const mlAway = be.rows.get('moneyline|null|away|');
    const scale = ev.sc.marginScale;
    if (mlHome && mlAway) {
      const betsFav = clampShare(st.mlFav);
      const betsHome = favHome ? betsFav : 1 - betsFav;
      let handleHome: number;
      if (sharp) handleHome = betsHome + 4 * (pHome - ev.openPHome) + st.mlTilt;
      else handleHome = betsHome + (favHome ? st.mlTilt : -st.mlTilt);
      const [bh, ba] = pair(betsHome);
      const [hh, ha] = pair(handleHome);
      out.moneyline = {
        away_odds: toAmerican(mlAway.pv, be.p.format),
        home_odds: toAmerican(mlHome.pv, be.p.format),
        handle_pct: { away: ha, home: hh },
        bets_pct: { away: ba, home: bh },
      };
    }
    if (be.spreadX !== null && ev.league.sport !== 'mma') {
      const homeLine = -be.spreadX + 0;
      const homeFav = homeLine < 0 || (homeLine === 0 && favHome);
      const betsFav = clampShare(st.spreadFav);
      const betsHome = homeFav ? betsFav : 1 - betsFav;
      let handleHome: number;
      if (sharp) handleHome = betsHome + (4 * (ev.mu - ev.openMu)) / scale + st.spreadTilt;
      else handleHome = betsHome + (homeFav ? st.spreadTilt : -st.spreadTilt);
      const [bh, ba] = pair(betsHome);
      const [hh, ha] = pair(handleHome);
      out.spread = { away_line: be.spreadX + 0, home_line: homeLine, handle_pct: { away: ha, home: hh }, bets_pct: { away: ba, home: bh } };
    }
    if (be.totalX !== null) {
      const betsOver = clampShare(st.over);
      let handleOver: number;
      if (sharp) handleOver = betsOver + (4 * (ev.total - ev.openT)) / ev.sc.totalScale + st.totalTilt;
      else handleOver = betsOver + st.totalTilt;
      const [bo, bu] = pair(betsOver);
      const [ho, hu] = pair(handleOver);
      out.total = { line: be.totalX, handle_pct: { over: ho, under: hu }, bets_pct: { over: bo, under: bu } };
    }
    return out.moneyline || out.spread || out.total ? out : null;
  }

  // ---------------------------------------------------------------- output

  private keyOf(r: Row): QuoteKey {
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
      k.statCategory = r.stat;
    }
    return k;
  }

  private quoteOf(r: Row): Quote {
    const be = r.be;
    if (r.marketId === null || r.selectionId === null) {
      const player = r.player !== null ? `-${hashString(r.player).toString(36)}` : '';
      const line = r.line !== null && r.marketType !== 'point_spread' && r.marketType !== 'asian_handicap' ? `-${r.line}` : '';
      r.marketId = `${be.ext}-${r.marketType}${player}${line}`;
      r.selectionId = `${r.marketId}-${r.selType}${r.line !== null ? `-${r.line}` : ''}`;
    }
    return {
      ...this.keyOf(r),
      price: priceInput(r.pv, be.p.format),
      isLive: r.live,
      isActive: r.active,
      externalEventId: be.ext,
      marketId: r.marketId,
      selectionId: r.selectionId,
      ...(be.p.kind === 'exchange' || be.p.kind === 'prediction' ? this.marketData(r.selectionId, r.moves, be.p.kind) : {}),
    };
  }

  private marketData(selectionId: string, moves: number, kind: 'exchange' | 'prediction'): Pick<Quote, 'volume' | 'volume24h' | 'openInterest'> {
    const d = simulatedMarketData(selectionId, moves, kind);
    return { volume: d.volume, volume24h: d.volume24h, openInterest: d.openInterest };
  }

  private markEmitted(r: Row): void {
    r.emitted = true;
    r.epv = r.pv;
    r.eactive = r.active;
    r.elive = r.live;
  }

  private eventUpdate(ev: SimEvent, now: number): EventUpdate {
    const u: EventUpdate = { league: ev.league.id, homeTeam: ev.home, awayTeam: ev.away, startTime: ev.startTime, status: ev.status };
    if (ev.game) {
      const gs: GameState = gameState(ev.league, ev.game, Math.min(now, this.now), ev.fair.pHomeML);
      u.gameState = gs;
    }
    return u;
  }
}
