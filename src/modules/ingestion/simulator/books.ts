/**
 * How each sportsbook prices: margin, reaction delay, noise and bias, price format, line
 * choices and which leagues it covers. Built from the catalog's book definitions.
 */

import type { BookDef } from '../../../config/catalog.js';
import { hashString } from './rng.js';
import { dict } from '../../../domain/dict.js';

export type PriceFormat = 'american5' | 'american1' | 'decimal2' | 'exchange2' | 'exchange3' | 'ladder' | 'contract';

export interface BookProfile {
  idx: number;
  id: string;
  def: BookDef;
  kind: 'sharp' | 'soft' | 'exchange' | 'prediction';
  /** Prefix of its external event ids (dk_8123). */
  prefix: string;
  /** Overround of a two-way main market (0.045 = 4.5%). */
  margin: number;
  /** Overround of a three-way soccer moneyline. */
  margin3: number;
  propMargin: number;
  /** Extra overround per alternate rung away from the main line. */
  altStep: number;
  /** Live markets carry this multiple of the pregame margin. */
  liveMult: number;
  /** Reaction delay in seconds, pregame and live ([min, max]). */
  lag: [number, number];
  liveLag: [number, number];
  /** Seconds a suspension around a scoring play lasts. */
  suspend: [number, number];
  /** Per-reprice price noise (probability sd near 50%). */
  noise: number;
  /** Bias sd: of spreads, totals and moneylines in logit, of props as a fraction of the mean. */
  biasSd: number;
  biasMlSd: number;
  propBiasSd: number;
  /** Probability distance from 50% a main line tolerates before the book moves it. */
  hysteresis: number;
  format: PriceFormat;
  /** Quotes whole-number lines too (pushes). */
  wholeLines: boolean;
  /** Alternate rungs on each side of the main spread/total. */
  rungs: number;
  /** League id -> share of that league's events the book lists. */
  leagues: Map<string, number>;
  props: boolean;
  live: boolean;
  asian: boolean;
  mlOnly: boolean;
}

const US_MAJOR = ['nba', 'ncaab', 'nfl', 'ncaaf', 'nhl'];
const SOCCER = ['epl', 'la_liga', 'serie_a', 'bundesliga', 'ligue_1', 'ucl', 'uel'];
const TENNIS = ['atp', 'wta'];

const MARGINS: Record<string, number> = dict({
  pinnacle: 0.022,
  circa: 0.027,
  bookmaker: 0.03,
  draftkings: 0.045,
  fanduel: 0.046,
  betmgm: 0.052,
  caesars: 0.05,
  thescorebet: 0.05,
  bet365: 0.048,
  betrivers: 0.055,
  fanatics: 0.048,
  bovada: 0.06,
  betonline: 0.044,
  ballybet: 0.065,
  fliff: 0.07,
  rebet: 0.056,
  hardrock: 0.055,
  unibet: 0.055,
  betway: 0.056,
  stake: 0.045,
  ladbrokes: 0.062,
  skybet: 0.066,
  bet105: 0.042,
  saba: 0.047,
  bwin: 0.062,
  prophetx: 0.02,
  novig: 0.017,
  betfair: 0.015,
  kalshi: 0.028,
  polymarket: 0.022,
});

const LAGS: Record<string, [number, number]> = dict({
  draftkings: [10, 45],
  fanduel: [10, 40],
  betmgm: [15, 70],
  caesars: [15, 70],
  thescorebet: [15, 60],
  bet365: [10, 50],
  betrivers: [20, 80],
  fanatics: [15, 60],
  bovada: [25, 90],
  betonline: [10, 45],
  ballybet: [25, 90],
  fliff: [30, 90],
  rebet: [20, 80],
  hardrock: [20, 80],
  unibet: [20, 70],
  betway: [20, 70],
  stake: [10, 40],
  ladbrokes: [20, 80],
  skybet: [20, 80],
  bet105: [10, 40],
  saba: [15, 60],
  bwin: [20, 80],
});

const COVERAGE: Record<string, number> = dict({
  pinnacle: 0.8,
  circa: 0.72,
  draftkings: 0.8,
  fanduel: 0.8,
  betmgm: 0.75,
  caesars: 0.72,
  thescorebet: 0.65,
  bet365: 0.8,
  betrivers: 0.7,
  fanatics: 0.7,
  bovada: 0.75,
  betonline: 0.75,
  ballybet: 0.55,
  fliff: 0.55,
  rebet: 0.55,
  hardrock: 0.6,
  unibet: 0.7,
  betway: 0.7,
  stake: 0.75,
  ladbrokes: 0.65,
  skybet: 0.6,
  bet105: 0.6,
  saba: 0.6,
  bwin: 0.2,
  bookmaker: 0.2,
  betfair: 0.2,
  prophetx: 0.6,
  novig: 0.6,
  kalshi: 0.65,
  polymarket: 0.55,
});

const PREFIX: Record<string, string> = dict({
  draftkings: 'dk',
  fanduel: 'fd',
  betmgm: 'mgm',
  caesars: 'czr',
  thescorebet: 'tsb',
  betrivers: 'br',
  fanatics: 'fan',
  bovada: 'bov',
  betonline: 'bol',
  ballybet: 'bly',
  fliff: 'flf',
  kalshi: 'kx',
  polymarket: 'pm',
  novig: 'nv',
  hardrock: 'hr',
  unibet: 'ub',
  betway: 'bw',
  rebet: 'rb',
  stake: 'stk',
  ladbrokes: 'lad',
  skybet: 'sky',
  bet105: 'b105',
  saba: 'sb',
  bwin: 'bwin',
  pinnacle: 'pin',
  circa: 'cir',
  prophetx: 'px',
  bookmaker: 'bkm',
  betfair: 'bf',
  bet365: 'b365',
});

function leaguesOf(def: BookDef): string[] {
  switch (def.id) {
    case 'pinnacle':
    case 'bet365':
    case 'stake':
    case 'bet105':
    case 'betfair':
    case 'bookmaker':
      return [...US_MAJOR, ...SOCCER, 'mls', 'euroleague', ...TENNIS, 'ufc'];
    case 'circa':
      return [...US_MAJOR, 'epl', 'la_liga', 'ucl', 'mls', 'ufc', ...TENNIS];
    case 'unibet':
    case 'betway':
    case 'bwin':
      return ['nba', 'nfl', 'nhl', ...SOCCER, 'mls', 'euroleague', ...TENNIS, 'ufc'];
    case 'ladbrokes':
    case 'skybet':
      return ['nba', 'nfl', 'nhl', ...SOCCER, ...TENNIS, 'ufc'];
    case 'saba':
      return ['nba', 'nfl', ...SOCCER, 'euroleague', ...TENNIS];
    case 'prophetx':
      return [...US_MAJOR, 'epl', 'ucl', ...TENNIS, 'ufc'];
    case 'novig':
      return [...US_MAJOR, 'epl', 'ucl', 'la_liga', 'mls', 'ufc'];
    case 'kalshi':
      return [...US_MAJOR, 'epl', 'ucl', 'la_liga', 'mls', 'ufc', ...TENNIS];
    case 'polymarket':
      return ['nba', 'nfl', 'ncaaf', 'nhl', 'epl', 'ucl', 'la_liga', 'serie_a', 'ufc', ...TENNIS];
    default: {
      const euro = ['draftkings', 'fanduel', 'bovada', 'betonline', 'thescorebet', 'betmgm'].includes(def.id) ? ['euroleague'] : [];
      return [...US_MAJOR, 'mls', ...SOCCER, ...euro, ...TENNIS, 'ufc'];
    }
  }
}

type PricingKeys =
  | 'lag'
  | 'liveLag'
  | 'suspend'
  | 'noise'
  | 'biasSd'
  | 'biasMlSd'
  | 'propBiasSd'
  | 'hysteresis'
  | 'format'
  | 'rungs'
  | 'altStep'
  | 'liveMult'
  | 'propMargin'
  | 'margin3';

/** The pricing profile of one catalog book. */
export function bookProfile(def: BookDef, idx: number): BookProfile {
  const kind = def.margin_profile;
  const h = hashString(def.id);
  const margin = MARGINS[def.id] ?? (kind === 'sharp' ? 0.025 : kind === 'exchange' ? 0.015 : kind === 'prediction' ? 0.02 : 0.055);
  const cov = COVERAGE[def.id] ?? 0.6;
  const leagues = new Map<string, number>();
  for (const l of leaguesOf(def)) {
    let c = cov;
    if (def.class === 'us' && SOCCER.includes(l)) c *= 0.9;
    if (TENNIS.includes(l) && kind === 'soft') c *= 0.85;
    leagues.set(l, Math.min(0.95, c));
  }
  const base: Omit<BookProfile, PricingKeys> = {
    idx,
    id: def.id,
    def,
    kind,
    prefix: PREFIX[def.id] ?? def.id.slice(0, 3),
    margin,
    leagues,
    props: def.has_player_props && (kind === 'sharp' || kind === 'soft'),
    live: def.has_live_odds,
    asian: ['pinnacle', 'saba', 'bet365'].includes(def.id),
    mlOnly: kind === 'prediction',
    wholeLines: ['pinnacle', 'circa', 'bet365', 'betonline', 'bookmaker', 'saba', 'bet105'].includes(def.id),
  };
  return { ...base, ...pricingOf(def, margin, h) };
}

/** How a book of each margin profile prices: margins on three-way and props, rungs, lags, noise, bias, format. */
function pricingOf(def: BookDef, margin: number, h: number): Pick<BookProfile, PricingKeys> {
  const kind = def.margin_profile;
  switch (kind) {
    case 'sharp':
      return {
        margin3: margin * 1.35,
        propMargin: margin + 0.02,
        altStep: 0.003,
        liveMult: 1.2,
        lag: [0.3, 2.5],
        liveLag: [0.2, 1.2],
        suspend: [2, 5],
        noise: 0.0008,
        biasSd: 0.006,
        biasMlSd: 0.006,
        propBiasSd: 0.01,
        hysteresis: 0.03,
        format: 'american1',
        rungs: 2,
      };
    case 'exchange':
      return {
        margin3: margin * 1.5,
        propMargin: margin + 0.02,
        altStep: 0.002,
        liveMult: 1.4,
        lag: [1, 6],
        liveLag: [0.3, 1.5],
        suspend: [2, 6],
        noise: 0.0012,
        biasSd: 0.012,
        biasMlSd: 0.012,
        propBiasSd: 0.02,
        hysteresis: 0.035,
        format: def.id === 'betfair' ? 'ladder' : def.id === 'novig' ? 'exchange3' : 'exchange2',
        rungs: def.id === 'novig' ? 0 : 1,
      };
    case 'prediction':
      return {
        margin3: margin * 1.5,
        propMargin: margin,
        altStep: 0,
        liveMult: 1.5,
        lag: [20, 120],
        liveLag: [2, 8],
        suspend: [5, 15],
        noise: 0.002,
        biasSd: 0.025,
        biasMlSd: 0.025,
        propBiasSd: 0,
        hysteresis: 0.05,
        format: 'contract',
        rungs: 0,
      };
    default: {
      const us = def.class === 'us';
      return {
        margin3: margin * 1.4,
        propMargin: Math.min(0.088, margin + 0.028),
        altStep: 0.005,
        liveMult: 1.55,
        lag: LAGS[def.id] ?? [15, 70],
        liveLag: (LAGS[def.id]?.[0] ?? 15) >= 20 ? [1.5, 5] : [0.8, 3],
        suspend: [4, 12],
        noise: 0.002,
        biasSd: 0.016 + (h % 7) * 0.002,
        biasMlSd: 0.02 + (h % 5) * 0.002,
        propBiasSd: 0.012,
        hysteresis: 0.05 + (h % 3) * 0.005,
        format: us ? 'american5' : 'decimal2',
        rungs: ['ballybet', 'fliff'].includes(def.id) ? 1 : 2,
      };
    }
  }
}
