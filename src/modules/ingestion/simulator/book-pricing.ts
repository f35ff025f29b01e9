/**
 * Book pricing: each book turns the fair model into its own prices (lagged view, margin, drifting bias, noise,
 * rounding, main-line choice with hysteresis, alternate rungs, props), and suspends, reopens and withdraws markets.
 */

import type { Dist, Fair } from './model.js';
import { lineSides, logit, moneyline, propOver, sigmoid } from './model.js';
import { applyMargin, formatPrice } from './pricing.js';
import { MIN, SEC, type BookEvent, type SimEvent, type SimWorld } from './world.js';

/** Row keys by market type, selection type, player and line: re-pricing asks for the same keys millions of times. */
const rowKeys = new Map<string, Map<string, Map<string, Map<number | null, string>>>>();
/** Keys held in rowKeys; past MAX_ROW_KEYS (players and lines of events long gone) it starts again. */
let rowKeyCount = 0;
const MAX_ROW_KEYS = 500_000;

/** A book row's key, `market|line|selection type|player` (the same string object each time it is asked for). */
export function rowKey(marketType: string, line: number | null, selType: string, player: string | null): string {
  if (rowKeyCount >= MAX_ROW_KEYS) {
    rowKeys.clear();
    rowKeyCount = 0;
  }
  let bySel = rowKeys.get(marketType);
  if (!bySel) rowKeys.set(marketType, (bySel = new Map()));
  let byPlayer = bySel.get(selType);
  if (!byPlayer) bySel.set(selType, (byPlayer = new Map()));
  const who = player ?? '';
  let byLine = byPlayer.get(who);
  if (!byLine) byPlayer.set(who, (byLine = new Map()));
  let key = byLine.get(line);
  if (key === undefined) {
    byLine.set(line, (key = `${marketType}|${line ?? 'null'}|${selType}|${who}`));
    rowKeyCount++;
  }
  return key;
}

/** Time scale of a book's bias drift (Ornstein-Uhlenbeck). */
const BIAS_TAU = 40 * MIN;

export class BookPricing {
  constructor(private readonly w: SimWorld) {}

  // ---------------------------------------------------------------- suspensions and withdrawals

  suspendBook(be: BookEvent, t: number): void {
    const w = this.w;
    be.token++;
    const delay = w.rng.range(0, be.p.kind === 'sharp' ? 0.5 : 1.2) * SEC;
    const [lo, hi] = be.p.suspend;
    w.heap.push(t + delay, { k: 'suspend', be, token: be.token });
    w.heap.push(t + delay + w.rng.range(lo, hi) * SEC, { k: 'reopen', be, token: be.token });
  }

  /** Books suspend the event's markets for a few seconds, then reopen on the new prices. */
  suspendAround(ev: SimEvent, t: number, chance: number): void {
    if (this.w.warm) return;
    for (const be of ev.books) {
      if (be.gone || !this.w.rng.chance(chance)) continue;
      this.suspendBook(be, t);
    }
  }

  suspendRows(be: BookEvent): void {
    be.suspended = true;
    const live = be.ev.status === 'live';
    for (const r of be.rows.values()) {
      if (r.active || r.live !== live) {
        r.active = false;
        if (be.ev.status !== 'ended') r.live = live;
        this.w.dirty.add(r);
      }
    }
  }

  /** The book withdraws every price of the event. */
  dropBook(be: BookEvent, report: boolean): void {
    be.gone = true;
    for (const r of be.rows.values()) this.w.dirty.delete(r);
    be.rows.clear();
    if (report) {
      const ev = be.ev;
      this.w.pendingEventRemovals.push({
        book: be.p.id,
        league: ev.league.id,
        homeTeam: ev.home,
        awayTeam: ev.away,
        startTime: ev.startTime,
      });
    }
  }

  // ---------------------------------------------------------------- pricing

  price(be: BookEvent, fair: Fair, t: number, force: boolean): void {
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

  private updateBias(be: BookEvent, t: number): void {
    const dt = t - be.biasAt;
    if (dt <= 0) return;
    be.biasAt = t;
    const a = Math.exp(-dt / BIAS_TAU);
    const s = Math.sqrt(1 - a * a);
    const rng = this.w.rng;
    const p = be.p;
    be.biasS = be.biasS * a + s * rng.normal() * p.biasSd;
    be.biasT = be.biasT * a + s * rng.normal() * p.biasSd;
    be.biasMl = be.biasMl * a + s * rng.normal() * p.biasMlSd;
    for (let i = 0; i < be.propBias.length; i++) {
      if (be.propSlots[i]) be.propBias[i] = (be.propBias[i] as number) * a + s * rng.normal() * p.propBiasSd;
    }
  }

  /** Rows of a component (0 lines, 1 props) not re-quoted in this pricing pass are withdrawn. */
  private sweep(be: BookEvent, comp: 0 | 1): void {
    for (const [lk, r] of be.rows) {
      if (r.comp === comp && r.mark !== be.epoch) {
        be.rows.delete(lk);
        r.dead = true;
        this.w.dirty.add(r);
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
    team: string | null = null,
  ): void {
    const lk = rowKey(marketType, line, selType, player);
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
        team,
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
      this.w.dirty.add(r);
      return;
    }
    r.mark = be.epoch;
    if (r.pv !== pv) r.moves++;
    if (r.pv !== pv || !r.active || r.live !== live) {
      r.pv = pv;
      r.active = true;
      r.live = live;
      this.w.dirty.add(r);
    }
  }

  private noise(be: BookEvent): number {
    return this.w.rng.normal() * be.p.noise * 4;
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
    const ml = moneyline(fair, 0, be.biasMl);
    this.priceMoneyline(be, fair, ml);
    if (be.p.mlOnly) return;
    const sport = be.ev.league.sport;
    const halfOnly = sport === 'soccer' || sport === 'hockey';
    if (be.spread && fair.margin) this.priceSpreads(be, fair, fair.margin, ml, halfOnly);
    if (be.total && fair.total) this.priceTotals(be, fair, fair.total, halfOnly);
  }

  private priceMoneyline(be: BookEvent, fair: Fair, ml: [number, number, number]): void {
    const p = be.p;
    const ev = be.ev;
    const live = fair.live;
    const mult = live ? p.liveMult : 1;
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
  }

  /** Spreads (a ladder of rungs around the main line; hockey's puck line), and Asian handicaps around the main spread. */
  private priceSpreads(be: BookEvent, fair: Fair, d: Dist, ml: [number, number, number], halfOnly: boolean): void {
    const p = be.p;
    const ev = be.ev;
    const live = fair.live;
    const mult = live ? p.liveMult : 1;
    let xs: Array<[number, number]>;
    if (ev.league.sport === 'hockey') {
      const fav = ml[0] >= ml[2];
      be.spreadX = fav ? 1.5 : -1.5;
      // The puck line is the favourite's -1.5; the other side's -1.5 and the 2.5s are alternates, quoted by the books
      // that quote alternate rungs (so the consensus main line is the favourite's, not a tie between the two).
      xs = (fav ? [1.5, -1.5, 2.5, -2.5] : [-1.5, 1.5, -2.5, 2.5])
        .map((x, i): [number, number] => [x, i === 0 ? 0 : i < 2 ? 1 : 2])
        .filter(([, rung]) => rung <= be.rungs);
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

  private priceTotals(be: BookEvent, fair: Fair, d: Dist, halfOnly: boolean): void {
    const p = be.p;
    const live = fair.live;
    const mult = live ? p.liveMult : 1;
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
      const team = slot.side === 'home' ? ev.home : ev.away;
      this.upsert(be, 1, slot.market, 'Over', 'over', line, slot.player.name, slot.stat, q[0] as number, false, team);
      this.upsert(be, 1, slot.market, 'Under', 'under', line, slot.player.name, slot.stat, q[1] as number, false, team);
    }
  }
}
