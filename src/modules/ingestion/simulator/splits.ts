/**
 * Public betting splits. DraftKings (recreational): bets lean to favourites and overs and the
 * handle follows the bets. Circa (sharp-friendly): bets near 50/50, handle leaning to the side
 * the fair price has moved to since the opening line.
 */

import type { Rng } from './rng.js';

/** Slowly drifting public leanings of one event at one book. */
export interface SplitsState {
  /** Share of moneyline / spread bets on the favourite, of total bets on the over. */
  mlFav: number;
  spreadFav: number;
  over: number;
  /** Handle minus bets (book-specific tilt). */
  mlTilt: number;
  spreadTilt: number;
  totalTilt: number;
}

export function initialSplits(rng: Rng, sharp: boolean, favStrength: number): SplitsState {
  if (sharp) {
    return {
      mlFav: 0.5 + 0.06 * favStrength + rng.normal() * 0.03,
      spreadFav: 0.5 + rng.normal() * 0.04,
      over: 0.5 + rng.normal() * 0.04,
      mlTilt: rng.normal() * 0.04,
      spreadTilt: rng.normal() * 0.04,
      totalTilt: rng.normal() * 0.04,
    };
  }
  return {
    mlFav: 0.56 + 0.17 * favStrength + rng.normal() * 0.04,
    spreadFav: 0.55 + 0.08 * favStrength + rng.normal() * 0.04,
    over: 0.6 + rng.normal() * 0.05,
    mlTilt: 0.03 + rng.normal() * 0.03,
    spreadTilt: 0.02 + rng.normal() * 0.03,
    totalTilt: 0.02 + rng.normal() * 0.03,
  };
}

/** One random-walk step of the leanings (every refresh). */
export function driftSplits(s: SplitsState, rng: Rng): void {
  s.mlFav += rng.normal() * 0.006;
  s.spreadFav += rng.normal() * 0.006;
  s.over += rng.normal() * 0.006;
  s.mlTilt += rng.normal() * 0.004;
  s.spreadTilt += rng.normal() * 0.004;
  s.totalTilt += rng.normal() * 0.004;
}

export function clampShare(x: number): number {
  return Math.min(0.97, Math.max(0.03, x));
}

/** A pair of shares as whole percent fractions summing to exactly 1 (e.g. 0.63 / 0.37). */
export function pair(first: number): [number, number] {
  const k = Math.round(clampShare(first) * 100);
  return [k / 100, (100 - k) / 100];
}
