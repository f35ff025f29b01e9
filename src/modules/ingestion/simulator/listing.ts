/**
 * Listing: the fixture calendar thinned to the target number of events, each fixture listed at its league's
 * posting horizon with its latent fair model and player props, and the books that cover its league.
 */

import type { Catalog, PlayerDef } from '../../../config/catalog.js';
import type { BookPricing } from './book-pricing.js';
import type { BookProfile } from './books.js';
import type { FairValues } from './fair-values.js';
import { Calendar, type Fixture } from './fixtures.js';
import { moneyline, propSd } from './model.js';
import { hashString } from './rng.js';
import { SPORTS, gameDurationMs, type LeagueConfig } from './sports.js';
import { DAY, HOUR, MIN, SPLITS_EVERY, type BookEvent, type PropSlot, type SimEvent, type SimWorld } from './world.js';

export class Listing {
  private readonly calendar: Calendar;
  private readonly playersByTeam = new Map<string, PlayerDef[]>();
  private threshold = 1;
  private horizonFactor = 1;
  private nextEventId = 1;

  constructor(
    catalog: Catalog,
    private readonly w: SimWorld,
    private readonly fair: FairValues,
    private readonly books: BookPricing,
    /** Target number of events on the board, scheduling horizon in days. */
    private readonly targetEvents: number,
    private readonly days: number,
    calendarFrom: number,
  ) {
    for (const p of catalog.players) {
      const list = this.playersByTeam.get(p.team) ?? [];
      list.push(p);
      this.playersByTeam.set(p.team, list);
    }
    this.calendar = new Calendar(catalog, w.seed, calendarFrom);
  }

  /** Schedules the listing of every kept fixture not over by `start` (from `t0` on), and the calendar refresh. */
  schedule(start: number, t0: number): void {
    this.calendar.ensure(start + this.days * DAY + DAY);
    this.chooseThreshold(start);
    for (const fx of this.calendar.fixtures) {
      if (!this.kept(fx) || fx.startTime + gameDurationMs(fx.league) <= start) continue;
      this.w.heap.push(Math.max(t0, fx.startTime - this.horizonMs(fx.league)), { k: 'list', fx });
    }
    this.w.heap.push(start + 6 * HOUR, { k: 'cal' });
  }

  onCalendar(t: number): void {
    const added = this.calendar.ensure(t + this.days * DAY + DAY);
    for (const fx of added) {
      if (this.kept(fx)) this.w.heap.push(Math.max(t, fx.startTime - this.horizonMs(fx.league)), { k: 'list', fx });
    }
    this.w.heap.push(t + 6 * HOUR, { k: 'cal' });
  }

  list(fx: Fixture, t: number): void {
    const w = this.w;
    const rng = w.rng;
    const league = fx.league;
    const diff = (fx.home.rating - fx.away.rating) / league.eloPerPoint;
    const mu = diff + league.homeAdv + rng.normal() * league.formSd;
    const total = league.avgTotal > 0 ? Math.max(league.avgTotal * 0.6, league.avgTotal + rng.normal() * league.totalSd) : 0;
    const props = this.propSlots(fx);
    const ev = newEvent(this.nextEventId++, fx, mu, total, props, t);
    this.fair.refreshFair(ev, true, true);
    ev.openPHome = moneyline(ev.fair, 0, 0)[0];
    for (const p of w.profiles) {
      const cov = p.leagues.get(league.id);
      if (cov === undefined || !rng.chance(cov)) continue;
      ev.books.push(this.bookEvent(p, ev, t));
    }
    w.events.set(ev.id, ev);
    w.dirtyEvents.add(ev);
    w.heap.push(t + this.fair.stepDelay(ev, t), { k: 'step', ev });
    if (props.length > 0) w.heap.push(t + rng.exp((6 * MIN) / w.activity), { k: 'pstep', ev });
    w.heap.push(Math.max(t, fx.startTime), { k: 'kick', ev });
    if (!w.warm) {
      for (const be of ev.books) this.books.price(be, ev.fair, t, true);
      w.heap.push(t + rng.range(0, SPLITS_EVERY), { k: 'splits', ev });
    }
  }

  private horizonMs(league: LeagueConfig): number {
    return Math.min(league.horizonH * this.horizonFactor, this.days * 24) * HOUR;
  }

  private kept(fx: Fixture): boolean {
    return fx.forced || fx.u <= this.threshold;
  }

  /** Picks the posting-horizon factor and the thinning threshold so that ~targetEvents are listed at start. */
  private chooseThreshold(start: number): void {
    const visible = (): Fixture[] =>
      this.calendar.fixtures.filter(
        (f) => f.startTime - this.horizonMs(f.league) <= start && f.startTime + gameDurationMs(f.league) > start,
      );
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

  /** The player props of a fixture: each listed player's stats the league offers, around his base mean. */
  private propSlots(fx: Fixture): PropSlot[] {
    const rng = this.w.rng;
    const props: PropSlot[] = [];
    for (const [side, team] of [
      ['home', fx.home],
      ['away', fx.away],
    ] as const) {
      for (const pl of this.playersByTeam.get(team.id) ?? []) {
        for (const [stat, market] of Object.entries(fx.league.props)) {
          const base = pl.props[stat];
          if (base === undefined || base <= 0) continue;
          const mean = base * (1 + rng.normal() * 0.05);
          const { sd, poisson } = propSd(stat, mean);
          props.push({ player: pl, side, stat, market, base, mean, sd, poisson, out: false });
        }
      }
    }
    return props;
  }

  private bookEvent(p: BookProfile, ev: SimEvent, t: number): BookEvent {
    const rng = this.w.rng;
    const seed = this.w.seed;
    const sc = ev.sc;
    const sport = ev.league.sport;
    const lines = !p.mlOnly && sport !== 'mma';
    const hs = hashString(`${p.id}:${ev.league.id}`, seed);
    const spreadSteps = [...sc.spreadSteps];
    if (p.wholeLines && (sport === 'football' || sport === 'basketball')) spreadSteps.push(1.5);
    const totalSteps = [...sc.totalSteps];
    let rungs = p.rungs;
    if (rungs >= 2 && (sport === 'basketball' || sport === 'football')) rungs++;
    if (rungs > 0 && rng.chance(0.15)) rungs--;
    const lean = this.w.lean;
    return {
      p,
      ev,
      ext: `${p.prefix}_${(hashString(`${ev.fx.uid}|${p.id}`, seed) % 9_000_000) + 1_000_000}`,
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
      asian: p.asian && sport === 'soccer' && !lean,
      propSlots: ev.props.map((s) => p.props && rng.chance(ev.league.sport === 'soccer' ? 0.45 : 0.75) && s.base > 0 && !lean),
      rungs: lean ? 0 : rungs,
      spreadStep: spreadSteps[hs % spreadSteps.length] ?? 1,
      totalStep: totalSteps[(hs >>> 8) % totalSteps.length] ?? 1,
      gone: false,
      epoch: 0,
      splits: null,
    };
  }
}

/** A newly listed event: upcoming, its fair model not computed yet, no books. */
function newEvent(id: number, fx: Fixture, mu: number, total: number, props: PropSlot[], t: number): SimEvent {
  return {
    id,
    fx,
    league: fx.league,
    sc: SPORTS[fx.league.sport],
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
    fair: {
      seq: 0,
      linesV: 0,
      propsV: 0,
      margin: null,
      total: null,
      pHomeML: null,
      threeWay: false,
      props: [],
      live: false,
      home: 0,
      away: 0,
    },
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
}
