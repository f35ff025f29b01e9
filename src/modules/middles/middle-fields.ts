import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';

/** The team a team-total ladder is about (its subject is the side), or null for other markets. */
export function teamTotalTeam(
  row: Pick<OddsRow, 'marketType' | 'ladderKey' | 'playerName'>,
  e: Pick<BoardEvent, 'homeTeam' | 'awayTeam'> | undefined,
): string | null {
  if (row.marketType !== 'team_total') return null;
  const subject = row.ladderKey.split('|')[3] ?? '';
  if (subject === 'home' && e) return e.homeTeam;
  if (subject === 'away' && e) return e.awayTeam;
  return row.playerName ?? (subject || null);
}

export interface AltPrice {
  book: string;
  odds: number;
}

/**
 * The other books offering the same side at the same line as a middle's side (the public middles item's `alt_side1`,
 * `alt_side2`): active prices of the same group and outcome from other books, best first (American odds); null
 * when no other book has it.
 */
export function altPrices(side: OddsRow, group: readonly OddsRow[], mayShow: (book: string) => boolean = () => true): AltPrice[] | null {
  const alts = group
    .filter(
      (r) =>
        r.sportsbook !== side.sportsbook &&
        r.isActive &&
        r.selectionType === side.selectionType &&
        r.line === side.line &&
        mayShow(r.sportsbook),
    )
    .sort((a, b) => b.decimal - a.decimal || (a.sportsbook < b.sportsbook ? -1 : 1))
    .map((r) => ({ book: r.sportsbook, odds: r.american }));
  return alts.length ? alts : null;
}
