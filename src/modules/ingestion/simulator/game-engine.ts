/**
 * The game engine: kick-off, scoring plays, periods and overtime, the live clock's momentum, tennis games and
 * sets, MMA finishes and decisions, the end-of-game lock, and the end of the game (books suspend, then leave).
 */

import type { BookPricing } from './book-pricing.js';
import type { FairValues } from './fair-values.js';
import { isPlaying, newGame, playRates, remainingMinutes, segmentEnd, type PeriodGame, type TennisGame } from './game.js';
import { sigmoid } from './model.js';
import { regulationMinutes, type SportConfig } from './sports.js';
import { MIN, SEC, lockedOut, type BookEvent, type SimEvent, type SimWorld } from './world.js';

export class GameEngine {
  constructor(
    private readonly w: SimWorld,
    private readonly fair: FairValues,
    private readonly books: BookPricing,
  ) {}

  onKickoff(ev: SimEvent, t: number): void {
    if (ev.removed || ev.status !== 'upcoming') return;
    const w = this.w;
    ev.status = 'live';
    const g = newGame(ev.league, t, w.rng);
    ev.game = g;
    for (const be of ev.books) if (!be.p.live && !be.gone) this.books.dropBook(be, !w.warm);
    this.fair.refreshFair(ev, true, true);
    w.dirtyEvents.add(ev);
    this.books.suspendAround(ev, t, 1);
    if (g.kind === 'tennis') w.heap.push(t + this.tennisGameMs(g), { k: 'tgame', ev });
    else this.startSegment(ev, g, t);
    if (ev.sc.liveTickS > 0) w.heap.push(t + ev.sc.liveTickS * SEC, { k: 'tick', ev });
  }

  onPlay(ev: SimEvent, token: number, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'period' || g.ended || token !== g.token || ev.status !== 'live') return;
    const rng = this.w.rng;
    if (ev.league.sport === 'mma') {
      // a finish: KO/TKO or submission
      if (rng.chance(sigmoid(ev.mu))) g.home = 1;
      else g.away = 1;
      this.endGame(ev, t);
      return;
    }
    const r = playRates(ev.league, g, ev.mu, ev.total, avgPlay(ev.sc));
    const homeScores = rng.chance(r.rh / (r.rh + r.ra));
    const pts = ev.sc.plays[rng.weighted(ev.sc.plays.map(([, wt]) => wt))]?.[0] ?? 1;
    if (homeScores) g.home += pts;
    else g.away += pts;
    g.lastScorer = homeScores ? 'home' : 'away';
    g.lastScoreAt = t;
    this.w.dirtyEvents.add(ev);
    const otSudden = g.seg >= ev.league.timeline.length && (ev.league.sport === 'hockey' || ev.league.sport === 'soccer');
    if (otSudden) {
      this.endGame(ev, t);
      return;
    }
    this.fair.refreshFair(ev, true, false);
    this.scoringPlay(ev, t);
    this.schedulePlay(ev, g, t);
  }

  onSegmentEnd(ev: SimEvent, token: number, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'period' || g.ended || token !== g.token) return;
    g.seg++;
    if (g.seg >= g.segs.length && this.regulationOver(ev, g)) {
      this.endGame(ev, t);
      return;
    }
    this.startSegment(ev, g, t);
    this.w.dirtyEvents.add(ev);
    this.fair.refreshFair(ev, true, false);
    this.checkLock(ev, t);
    this.fair.notify(ev, t);
  }

  /** Live refresh: a little momentum in the latent values and the clock running down. */
  onTick(ev: SimEvent, t: number): void {
    if (ev.status !== 'live' || ev.removed) return;
    const rng = this.w.rng;
    const sc = ev.sc;
    if (ev.league.sport === 'mma') {
      ev.mu += rng.normal() * 0.1;
      if (rng.chance(0.02)) {
        ev.mu += (rng.chance(0.5) ? 1 : -1) * rng.range(0.5, 1.2);
        this.fair.refreshFair(ev, true, false);
        this.books.suspendAround(ev, t, 1);
      } else {
        this.fair.refreshFair(ev, true, false);
        this.fair.notify(ev, t);
      }
    } else {
      ev.mu += rng.normal() * sc.stepMu * 0.5;
      ev.total = Math.max(ev.league.avgTotal * 0.5, ev.total + rng.normal() * sc.stepT * 0.5);
      this.fair.refreshFair(ev, true, false);
      this.fair.notify(ev, t);
    }
    this.w.dirtyEvents.add(ev);
    this.checkLock(ev, t);
    this.w.heap.push(t + sc.liveTickS * SEC, { k: 'tick', ev });
  }

  onTennisGame(ev: SimEvent, t: number): void {
    const g = ev.game;
    if (!g || g.kind !== 'tennis' || g.ended || ev.status !== 'live') return;
    const rng = this.w.rng;
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
    this.w.dirtyEvents.add(ev);
    this.fair.refreshFair(ev, true, false);
    if (setOver) this.books.suspendAround(ev, t, 1);
    else this.scoringPlay(ev, t);
    this.w.heap.push(t + this.tennisGameMs(g) + (setOver ? 2 * MIN : 0), { k: 'tgame', ev });
  }

  onLeave(be: BookEvent): void {
    if (be.gone) return;
    this.books.dropBook(be, true);
    if (be.ev.books.every((b) => b.gone)) this.removeEvent(be.ev);
  }

  /**
   * Regulation (or an overtime) is over: whether the game ends here (MMA decision, a winner, an NFL tie after one
   * overtime, a shootout or coin flip) or goes to another overtime period (pushed onto the game's segments).
   */
  private regulationOver(ev: SimEvent, g: PeriodGame): boolean {
    const league = ev.league;
    const rng = this.w.rng;
    if (league.sport === 'mma') {
      // decision
      if (rng.chance(sigmoid(ev.mu))) g.home = 1;
      else g.away = 1;
      return true;
    }
    if (g.home !== g.away || !league.overtime) return true;
    const hockeyShootout = league.sport === 'hockey' && g.overtimes >= 1;
    const nflTie = league.id === 'nfl' && g.overtimes >= 1;
    const coinFlip = g.overtimes >= 3;
    if (hockeyShootout || coinFlip) {
      if (rng.chance(sigmoid(ev.mu))) g.home += league.sport === 'football' ? 3 : 1;
      else g.away += league.sport === 'football' ? 3 : 1;
      return true;
    }
    if (nflTie) return true;
    g.segs.push(league.overtime);
    g.overtimes++;
    return false;
  }

  private startSegment(ev: SimEvent, g: PeriodGame, t: number): void {
    g.segStart = t;
    g.token++;
    this.w.heap.push(segmentEnd(g), { k: 'seg', ev, token: g.token });
    this.schedulePlay(ev, g, t);
  }

  private schedulePlay(ev: SimEvent, g: PeriodGame, t: number): void {
    if (!isPlaying(g) || g.ended) return;
    let rate: number;
    if (ev.league.sport === 'mma') {
      rate = 0.045 / MIN;
    } else {
      const r = playRates(ev.league, g, ev.mu, ev.total, avgPlay(ev.sc));
      rate = r.rh + r.ra;
    }
    if (!(rate > 0)) return;
    const at = t + this.w.rng.exp(1 / rate);
    if (at < segmentEnd(g)) this.w.heap.push(at, { k: 'play', ev, token: g.token });
  }

  private tennisGameMs(g: TennisGame): number {
    const tiebreak = g.home === 6 && g.away === 6;
    return this.w.rng.range(tiebreak ? 7 : 3, tiebreak ? 11 : 6) * MIN;
  }

  private endGame(ev: SimEvent, t: number): void {
    const w = this.w;
    ev.status = 'ended';
    if (ev.game) ev.game.ended = true;
    w.dirtyEvents.add(ev);
    if (w.warm) {
      this.removeEvent(ev);
      return;
    }
    let remaining = 0;
    for (const be of ev.books) {
      if (be.gone) continue;
      remaining++;
      this.books.suspendRows(be);
      w.heap.push(t + w.rng.range(3, 40) * SEC, { k: 'leave', be });
    }
    if (remaining === 0) this.removeEvent(ev);
  }

  private removeEvent(ev: SimEvent): void {
    ev.removed = true;
    for (const be of ev.books) {
      if (!be.gone) this.books.dropBook(be, false);
    }
    this.w.events.delete(ev.id);
  }

  /**
   * After a score: in sports where every score is big news (goals, touchdowns) every book
   * suspends; elsewhere (baskets, tennis games) slow books suspend more often than quick ones,
   * the others just reprice after their live delay.
   */
  private scoringPlay(ev: SimEvent, t: number): void {
    const w = this.w;
    if (w.warm) return;
    const all = ev.sc.suspendOnScore >= 1 || remainingShare(ev, t) < 0.12;
    const fair = ev.fair;
    for (const be of ev.books) {
      if (be.gone || be.suspended) continue;
      const k = be.p.kind;
      const chance = all ? 1 : k === 'sharp' ? ev.sc.suspendOnScore : k === 'exchange' ? 0.5 : 0.97;
      if (w.rng.chance(chance)) {
        this.books.suspendBook(be, t);
      } else {
        const [lo, hi] = be.p.liveLag;
        w.heap.push(t + w.rng.range(lo, hi) * SEC, { k: 'reprice', be, fair });
      }
    }
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
    const warm = this.w.warm;
    if (lock && !ev.locked) {
      ev.locked = true;
      if (!warm) for (const be of ev.books) if (!be.gone && lockedOut(be)) this.books.suspendRows(be);
    } else if (!lock && ev.locked) {
      if (!warm) for (const be of ev.books) if (!be.gone && lockedOut(be)) this.books.suspendBook(be, t);
      ev.locked = false;
    }
  }
}

/** Mean points of a scoring play in the sport. */
function avgPlay(sc: SportConfig): number {
  let s = 0;
  let w = 0;
  for (const [pts, wt] of sc.plays) {
    s += pts * wt;
    w += wt;
  }
  return s / w;
}

/** Share of regulation still to play (0 in overtime) of a period game; 1 otherwise. */
function remainingShare(ev: SimEvent, t: number): number {
  const g = ev.game;
  if (!g || g.kind !== 'period') return 1;
  const regSegs = ev.league.timeline.length;
  if (regSegs === 0) return 1;
  if (g.seg >= regSegs) return 0;
  return remainingMinutes(g, t, regSegs) / regulationMinutes(ev.league);
}
