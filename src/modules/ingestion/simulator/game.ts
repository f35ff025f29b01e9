/**
 * In-play engines: the score and clock of a running game, its scoring rates, and the fair
 * distributions of the final margin and total given the score and the time left.
 */

import {
  HOCKEY_EMPTY_NET_SHIFT,
  Pmf,
  discretisedNormal,
  finalScorePmfs,
  poissonPmf,
  skellamPmf,
  FOOTBALL_TOTAL_SD,
  BASKETBALL_MARGIN_SD,
  BASKETBALL_TOTAL_SD,
  FOOTBALL_MARGIN_SD,
} from '../../../math/index.js';
import type { GameState } from '../../../domain/types.js';
import { Dist, hockeyRates, sigmoid, tennisGameP } from './model.js';
import type { Rng } from './rng.js';
import { regulationMinutes, type LeagueConfig, type Segment } from './sports.js';
import { tennisOutlook } from './tennis.js';

const MIN = 60_000;

/** Basketball, football, hockey and soccer: periods on a clock. MMA fights use it too (rounds). */
export interface PeriodGame {
  kind: 'period';
  segs: Segment[];
  seg: number;
  segStart: number;
  home: number;
  away: number;
  overtimes: number;
  ended: boolean;
  /** Bumped on every segment change: plays scheduled for an old segment are ignored. */
  token: number;
  /** Who scored last and when: the other side then has the ball. */
  lastScorer: 'home' | 'away' | null;
  lastScoreAt: number;
}

export interface TennisGame {
  kind: 'tennis';
  sets: Array<[number, number]>;
  home: number;
  away: number;
  ended: boolean;
  token: number;
}

export type Game = PeriodGame | TennisGame;

export function newGame(league: LeagueConfig, t: number, rng: Rng): Game {
  if (league.sport === 'tennis') return { kind: 'tennis', sets: [], home: 0, away: 0, ended: false, token: 0 };
  let segs = league.timeline;
  if (league.sport === 'mma') {
    const rounds = rng.chance(0.15) ? 5 : 3;
    segs = [];
    for (let r = 1; r <= rounds; r++) {
      segs.push({ label: `R${r}`, gameMin: 5, wallMin: 5 });
      if (r < rounds) segs.push({ label: `R${r}`, gameMin: 0, wallMin: 1 });
    }
  }
  return {
    kind: 'period',
    segs: [...segs],
    seg: 0,
    segStart: t,
    home: 0,
    away: 0,
    overtimes: 0,
    ended: false,
    token: 0,
    lastScorer: null,
    lastScoreAt: t,
  };
}

export function segmentEnd(g: PeriodGame): number {
  const s = g.segs[g.seg];
  return s ? g.segStart + s.wallMin * MIN : g.segStart;
}

export function isPlaying(g: PeriodGame): boolean {
  return (g.segs[g.seg]?.gameMin ?? 0) > 0;
}

/** Game minutes of regulation still to play at time t (in overtime: of the overtime). */
export function remainingMinutes(g: PeriodGame, t: number, regulationSegs: number): number {
  let rem = 0;
  const cur = g.segs[g.seg];
  if (cur && cur.gameMin > 0) {
    const frac = Math.min(1, Math.max(0, (t - g.segStart) / (cur.wallMin * MIN)));
    rem += cur.gameMin * (1 - frac);
  }
  const last = g.seg < regulationSegs ? regulationSegs : g.segs.length;
  for (let i = g.seg + 1; i < last; i++) rem += g.segs[i]?.gameMin ?? 0;
  return rem;
}

function mmss(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Who serves the current game: players alternate every game, the home player serving the first. */
export function tennisServer(g: TennisGame): 'home' | 'away' {
  let played = g.home + g.away;
  for (const [h, a] of g.sets) played += h + a;
  return played % 2 === 0 ? 'home' : 'away';
}

/** The game_state object of a game at time t. */
export function gameState(league: LeagueConfig, g: Game, t: number, pHome: number | null): GameState {
  if (g.kind === 'tennis') {
    const state: GameState = {
      home_score: g.sets.filter(([h, a]) => h > a).length,
      away_score: g.sets.filter(([h, a]) => a > h).length,
      game_period: g.ended ? 'F' : `S${g.sets.length + 1}`,
      sets_home: [...g.sets.map(([h]) => h), ...(g.ended ? [] : [g.home])],
      sets_away: [...g.sets.map(([, a]) => a), ...(g.ended ? [] : [g.away])],
    };
    // Service alternates game by game (the home player served first); a tie-break counts as one game.
    if (!g.ended) state.server = tennisServer(g);
    return state;
  }
  const seg = g.segs[g.seg];
  if (g.ended || !seg) {
    const state: GameState = {
      home_score: g.home,
      away_score: g.away,
      game_period: league.sport === 'soccer' ? 'FT' : 'F',
      game_clock: '0:00',
    };
    if (league.sport === 'mma' && pHome !== null) state.winner = g.home > g.away ? 'home' : 'away';
    return state;
  }
  const elapsedFrac = Math.min(1, Math.max(0, (t - g.segStart) / (seg.wallMin * MIN)));
  let clock: string;
  if (league.sport === 'soccer') {
    let before = 0;
    for (let i = 0; i < g.seg; i++) before += g.segs[i]?.gameMin ?? 0;
    clock = seg.gameMin > 0 ? mmss((before + seg.gameMin * elapsedFrac) * 60) : mmss(before * 60);
  } else {
    clock = seg.gameMin > 0 ? mmss(seg.gameMin * 60 * (1 - elapsedFrac)) : '0:00';
  }
  const state: GameState = { home_score: g.home, away_score: g.away, game_period: seg.label, game_clock: clock };
  if ((league.sport === 'basketball' || league.sport === 'football') && g.lastScorer !== null && seg.gameMin > 0) {
    state.possession = g.lastScorer === 'home' ? 'away' : 'home';
  }
  return state;
}

/**
 * Expected points of the possession that follows a score (the other side gets the ball), fading
 * as play goes on: without it every basket would move the price by its full value.
 */
function possessionEdge(league: LeagueConfig, g: PeriodGame, t: number): number {
  if (g.lastScorer === null) return 0;
  const [ppp, tau] = league.sport === 'basketball' ? [1.05, 30_000] : league.sport === 'football' ? [1.6, 240_000] : [0, 1];
  const fade = Math.exp(-(t - g.lastScoreAt) / tau);
  return (g.lastScorer === 'home' ? -1 : 1) * ppp * fade;
}

/** Expected regulation points/goals per team from the latent margin and total. */
export function teamExpectations(league: LeagueConfig, mu: number, total: number): { eh: number; ea: number } {
  if (league.sport === 'hockey') {
    const r = hockeyRates(mu, total);
    return { eh: r.lh, ea: r.la };
  }
  const eh = Math.max(0.04 * total, (total + mu) / 2);
  const ea = Math.max(0.04 * total, (total - mu) / 2);
  return { eh, ea };
}

function shiftPmf(p: Pmf, by: number): Pmf {
  return Pmf.fromWeights(p.min + by, p.toArray(), 0);
}

/** Moves the mass of final margin 0 to +-step (overtime decides), keeping `homeShare` of it home. */
function resolveTies(d: Pmf, step: number, homeShare: number): Float64Array {
  const arr = d.toArray();
  const min = d.min;
  const out = new Float64Array(arr.length + 2 * step);
  const off = step;
  for (let i = 0; i < arr.length; i++) out[i + off] = arr[i] as number;
  const zero = -min + off;
  if (zero >= 0 && zero < out.length) {
    const m = out[zero] as number;
    out[zero] = 0;
    out[zero + step] = (out[zero + step] as number) + m * homeShare;
    out[zero - step] = (out[zero - step] as number) + m * (1 - homeShare);
  }
  return out;
}

/** Live fair distributions of a period game (basketball, football, hockey, soccer). */
export function liveLines(league: LeagueConfig, g: PeriodGame, t: number, mu: number, total: number): { margin: Dist; total: Dist } {
  const reg = regulationMinutes(league);
  const regSegs = league.timeline.length;
  const inOt = g.seg >= regSegs;
  const rem = remainingMinutes(g, t, regSegs);
  const f = Math.max(0, rem / reg);
  const cm = g.home - g.away;
  const ct = g.home + g.away;
  const { eh, ea } = teamExpectations(league, mu, total);
  switch (league.sport) {
    case 'basketball':
    case 'football': {
      const bsd = league.sport === 'basketball' ? BASKETBALL_MARGIN_SD : FOOTBALL_MARGIN_SD;
      const tsd = league.sport === 'basketball' ? BASKETBALL_TOTAL_SD : FOOTBALL_TOTAL_SD;
      const msd = Math.max(0.45, (league.marginSd ?? bsd) * Math.sqrt(f));
      const tsdl = Math.max(0.45, (league.totalPmfSd ?? tsd) * Math.sqrt(f));
      const marginRem = discretisedNormal((eh - ea) * f + possessionEdge(league, g, t), msd);
      const totalRem = discretisedNormal((eh + ea) * f, tsdl);
      const step = league.sport === 'basketball' ? 1 : 3;
      const share = sigmoid(((eh - ea) / (eh + ea)) * 6);
      const shifted = shiftPmf(marginRem, cm);
      const w = resolveTies(shifted, step, share);
      return { margin: Dist.fromWeights(shifted.min - step, w), total: Dist.fromPmf(totalRem, ct) };
    }
    case 'hockey': {
      const share = eh / (eh + ea);
      if (inOt) {
        return { margin: Dist.fromWeights(cm - 1, [1 - share, 0, share]), total: Dist.fromWeights(ct + 1, [1]) };
      }
      const h = shiftPmf(poissonPmf(Math.max(1e-3, eh * f)), g.home);
      const a = shiftPmf(poissonPmf(Math.max(1e-3, ea * f)), g.away);
      const r = finalScorePmfs(h, a, {
        tieInflation: 1 + 0.4 * f,
        resolveTies: true,
        homeTieShare: share,
        oneGoalShift: HOCKEY_EMPTY_NET_SHIFT * Math.min(1, f * 6),
      });
      return { margin: Dist.fromPmf(r.margin), total: Dist.fromPmf(r.total) };
    }
    default: {
      const lh = Math.max(1e-3, eh * f);
      const la = Math.max(1e-3, ea * f);
      return { margin: Dist.fromPmf(skellamPmf(lh, la), cm), total: Dist.fromPmf(poissonPmf(lh + la), ct) };
    }
  }
}

/** Live fair values of a tennis match. */
export function liveTennis(g: TennisGame, x: number): { margin: Dist; total: Dist; pHome: number } {
  const o = tennisOutlook(tennisGameP(x), { sets: g.sets, home: g.home, away: g.away });
  return { margin: Dist.fromWeights(o.marginMin, o.margin), total: Dist.fromWeights(o.totalMin, o.total), pHome: o.pHomeMatch };
}

/** Scoring-play rate (plays per ms) of each team in the current segment. */
export function playRates(league: LeagueConfig, g: PeriodGame, mu: number, total: number, avgPlay: number): { rh: number; ra: number } {
  const seg = g.segs[g.seg];
  if (!seg || seg.gameMin === 0) return { rh: 0, ra: 0 };
  const reg = regulationMinutes(league);
  const { eh, ea } = teamExpectations(league, mu, total);
  const perMs = seg.gameMin / (seg.wallMin * MIN) / reg / avgPlay;
  const boost = g.seg >= league.timeline.length && league.sport === 'hockey' ? 1.5 : 1;
  return { rh: eh * perMs * boost, ra: ea * perMs * boost };
}
