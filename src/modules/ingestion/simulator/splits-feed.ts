/**
 * The splits feed: every minute, the books that publish betting splits (DraftKings, Circa) report the share of
 * bets and handle on each side of their moneyline, main spread and main total. Public money leans to favourites
 * and overs; at the sharp book the handle follows the line's move since the open.
 */

import type { SplitsInput } from '../../../domain/types.js';
import { moneyline } from './model.js';
import { toAmerican } from './pricing.js';
import { clampShare, driftSplits, initialSplits, pair, type SplitsState } from './splits.js';
import { SPLITS_EVERY, type BookEvent, type SimEvent, type SimWorld } from './world.js';

export class SplitsFeed {
  constructor(private readonly w: SimWorld) {}

  onSplits(ev: SimEvent, t: number): void {
    if (ev.removed || ev.status === 'ended') return;
    for (const be of ev.books) {
      if (be.gone || (be.p.id !== 'draftkings' && be.p.id !== 'circa')) continue;
      const s = this.splitsOf(be, t);
      if (s) this.w.pendingSplits.push(s);
    }
    this.w.heap.push(t + SPLITS_EVERY, { k: 'splits', ev });
  }

  private splitsOf(be: BookEvent, t: number): SplitsInput | null {
    const ev = be.ev;
    const sharp = be.p.id === 'circa';
    const pHome = moneyline(ev.fair, 0, 0)[0];
    if (!be.splits) be.splits = initialSplits(this.w.rng, sharp, Math.min(1, Math.abs(pHome - 0.5) * 2.5));
    const st = be.splits;
    driftSplits(st, this.w.rng);
    const out: SplitsInput = {
      book: be.p.id,
      league: ev.league.id,
      homeTeam: ev.home,
      awayTeam: ev.away,
      startTime: ev.startTime,
      fetchedAt: t,
    };
    moneylineSplits(be, st, sharp, pHome, out);
    if (be.spreadX !== null && ev.league.sport !== 'mma') out.spread = spreadSplits(be, be.spreadX, st, sharp, pHome >= 0.5);
    if (be.totalX !== null) out.total = totalSplits(be, be.totalX, st, sharp);
    return out.moneyline || out.spread || out.total ? out : null;
  }
}

function moneylineSplits(be: BookEvent, st: SplitsState, sharp: boolean, pHome: number, out: SplitsInput): void {
  const mlHome = be.rows.get('moneyline|null|home|');
  const mlAway = be.rows.get('moneyline|null|away|');
  if (!mlHome || !mlAway) return;
  const favHome = pHome >= 0.5;
  const betsFav = clampShare(st.mlFav);
  const betsHome = favHome ? betsFav : 1 - betsFav;
  let handleHome: number;
  if (sharp) handleHome = betsHome + 4 * (pHome - be.ev.openPHome) + st.mlTilt;
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

function spreadSplits(be: BookEvent, spreadX: number, st: SplitsState, sharp: boolean, favHome: boolean): SplitsInput['spread'] {
  const ev = be.ev;
  const homeLine = -spreadX + 0;
  const homeFav = homeLine < 0 || (homeLine === 0 && favHome);
  const betsFav = clampShare(st.spreadFav);
  const betsHome = homeFav ? betsFav : 1 - betsFav;
  let handleHome: number;
  if (sharp) handleHome = betsHome + (4 * (ev.mu - ev.openMu)) / ev.sc.marginScale + st.spreadTilt;
  else handleHome = betsHome + (homeFav ? st.spreadTilt : -st.spreadTilt);
  const [bh, ba] = pair(betsHome);
  const [hh, ha] = pair(handleHome);
  return { away_line: spreadX + 0, home_line: homeLine, handle_pct: { away: ha, home: hh }, bets_pct: { away: ba, home: bh } };
}

function totalSplits(be: BookEvent, totalX: number, st: SplitsState, sharp: boolean): SplitsInput['total'] {
  const ev = be.ev;
  const betsOver = clampShare(st.over);
  let handleOver: number;
  if (sharp) handleOver = betsOver + (4 * (ev.total - ev.openT)) / ev.sc.totalScale + st.totalTilt;
  else handleOver = betsOver + st.totalTilt;
  const [bo, bu] = pair(betsOver);
  const [ho, hu] = pair(handleOver);
  return { line: totalX, handle_pct: { over: ho, under: hu }, bets_pct: { over: bo, under: bu } };
}
