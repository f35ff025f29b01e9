/**
 * Tennis match maths: from a per-game win probability for the home (first-listed) player,
 * the exact distribution of the rest of a best-of-three match (first to six games, two clear,
 * tie-break at 6-6), as match-win probability plus game-margin and total-games weights.
 */

export interface TennisScore {
  /** Completed sets, as [home games, away games]. */
  sets: Array<[number, number]>;
  /** Games in the current set. */
  home: number;
  away: number;
}

export interface TennisOutlook {
  pHomeMatch: number;
  /** Weights of the final game margin (home - away) from `marginMin`. */
  marginMin: number;
  margin: Float64Array;
  totalMin: number;
  total: Float64Array;
}

type SetOutcome = [h: number, a: number, p: number];

function setFinished(h: number, a: number): boolean {
  return (h >= 6 && h - a >= 2) || (a >= 6 && a - h >= 2) || h === 7 || a === 7;
}

/** Final scores of a set from (h, a) with per-game home win probability p (tie-break won with p too). */
export function setOutcomes(p: number, h: number, a: number): SetOutcome[] {
  const out = new Map<number, SetOutcome>();
  let states = new Map<number, number>([[h * 16 + a, 1]]);
  while (states.size > 0) {
    const next = new Map<number, number>();
    for (const [k, w] of states) {
      const x = k >> 4;
      const y = k & 15;
      if (setFinished(x, y)) {
        const cur = out.get(k);
        if (cur) cur[2] += w;
        else out.set(k, [x, y, w]);
        continue;
      }
      const up = (x + 1) * 16 + y;
      const right = x * 16 + y + 1;
      next.set(up, (next.get(up) ?? 0) + w * p);
      next.set(right, (next.get(right) ?? 0) + w * (1 - p));
    }
    states = next;
  }
  return [...out.values()];
}

/** Outlook of a best-of-three match from `score` with per-game home win probability p. */
export function tennisOutlook(p: number, score: TennisScore): TennisOutlook {
  let doneH = 0;
  let doneA = 0;
  let setsH = 0;
  let setsA = 0;
  for (const [h, a] of score.sets) {
    doneH += h;
    doneA += a;
    if (h > a) setsH++;
    else setsA++;
  }
  const fresh = setOutcomes(p, 0, 0);
  const margin = new Map<number, number>();
  const total = new Map<number, number>();
  let win = 0;
  const rec = (sh: number, sa: number, gh: number, ga: number, outcomes: SetOutcome[], w: number): void => {
    for (const [h, a, q] of outcomes) {
      const ww = w * q;
      if (ww < 1e-13) continue;
      const nsh = sh + (h > a ? 1 : 0);
      const nsa = sa + (h > a ? 0 : 1);
      const ngh = gh + h;
      const nga = ga + a;
      if (nsh === 2 || nsa === 2) {
        if (nsh === 2) win += ww;
        margin.set(ngh - nga, (margin.get(ngh - nga) ?? 0) + ww);
        total.set(ngh + nga, (total.get(ngh + nga) ?? 0) + ww);
      } else {
        rec(nsh, nsa, ngh, nga, fresh, ww);
      }
    }
  };
  if (setsH >= 2 || setsA >= 2) {
    margin.set(doneH - doneA, 1);
    total.set(doneH + doneA, 1);
    win = setsH >= 2 ? 1 : 0;
  } else {
    rec(setsH, setsA, doneH, doneA, setOutcomes(p, score.home, score.away), 1);
  }
  const dense = (m: Map<number, number>): { min: number; w: Float64Array } => {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const k of m.keys()) {
      if (k < lo) lo = k;
      if (k > hi) hi = k;
    }
    const w = new Float64Array(hi - lo + 1);
    for (const [k, v] of m) w[k - lo] = v;
    return { min: lo, w };
  };
  const dm = dense(margin);
  const dt = dense(total);
  let s = 0;
  for (const v of margin.values()) s += v;
  return { pHomeMatch: win / s, marginMin: dm.min, margin: dm.w, totalMin: dt.min, total: dt.w };
}
