/**
 * Fair values: the latent model of each event (expected margin and total, player means) walks and jumps on news
 * before the game; refreshFair turns it into the fair distributions books price from, and notify has every book
 * reprice after its own lag.
 */

import { liveLines, liveTennis } from './game.js';
import { pregameLines, sigmoid, type Dist, type PropFair } from './model.js';
import { HOUR, MIN, SEC, type SimEvent, type SimWorld } from './world.js';

/** Time scale of the pregame fair value's pull back to its anchor. */
const FAIR_TAU = 24 * HOUR;

export class FairValues {
  constructor(private readonly w: SimWorld) {}

  /** Delay to the next pregame step: more frequent as the start nears. */
  stepDelay(ev: SimEvent, t: number): number {
    const h = (ev.startTime - t) / HOUR;
    const mean = h > 24 ? 20 * MIN : h > 2 ? 5 * MIN : 75 * SEC;
    return this.w.rng.exp(mean / this.w.activity);
  }

  /** Pregame random walk of the latent margin and total, with rare news jumps. */
  onStep(ev: SimEvent, t: number): void {
    if (ev.status !== 'upcoming' || ev.removed) return;
    const rng = this.w.rng;
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
    this.w.heap.push(t + this.stepDelay(ev, t), { k: 'step', ev });
  }

  /** Drift of player means; now and then a player is ruled out (books pull his props). */
  onPropStep(ev: SimEvent, t: number): void {
    if (ev.status !== 'upcoming' || ev.removed) return;
    const rng = this.w.rng;
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
    this.w.heap.push(t + rng.exp((6 * MIN) / this.w.activity), { k: 'pstep', ev });
  }

  /** Recomputes the event's fair distributions (lines and/or props); during warm-up only marks them stale. */
  refreshFair(ev: SimEvent, lines: boolean, props: boolean): void {
    if (this.w.warm && ev.status !== 'ended') {
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
        const r = liveLines(ev.league, g, this.w.now, ev.mu, ev.total);
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
  notify(ev: SimEvent, t: number): void {
    if (this.w.warm) return;
    const live = ev.status === 'live';
    const fair = ev.fair;
    for (const be of ev.books) {
      if (be.gone || be.suspended) continue;
      const [lo, hi] = live ? be.p.liveLag : be.p.lag;
      this.w.heap.push(t + this.w.rng.range(lo, hi) * SEC, { k: 'reprice', be, fair });
    }
  }
}
