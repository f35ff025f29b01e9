import { Injectable } from '@nestjs/common';
import { Catalog, type TeamDef } from '../../config/catalog.js';
import { dict } from '../../domain/dict.js';

export interface TeamBlock {
  id: string;
  numerical_id: number;
  name: string;
  abbreviation: string;
  /** The catalog's details of the team, each present only when the catalog has it. */
  logo?: string;
  city?: string;
  mascot?: string;
  conference?: string;
  division?: string;
}

/** The team's block: its ids and name, and the details the catalog has (keys without a value are left out). */
function teamBlock(t: TeamDef): TeamBlock {
  const b: TeamBlock = { id: t.id, numerical_id: t.numerical_id, name: t.name, abbreviation: t.abbreviation };
  if (t.logo) b.logo = t.logo;
  if (t.city) b.city = t.city;
  if (t.mascot) b.mascot = t.mascot;
  if (t.conference) b.conference = t.conference;
  if (t.division) b.division = t.division;
  return b;
}
export interface SportBlock {
  id: string;
  numerical_id: number;
  name: string;
}
export interface LabelBlock {
  id: string;
  numerical_id: number | null;
  label: string;
}

/**
 * The optional reference blocks of Odds, Event and opportunity items (home, away, sport_ref, league_ref, market_ref,
 * sportsbook_ref): emitted only when the entity is in the catalog. Cached per key.
 */
@Injectable()
export class RefBlocks {
  private readonly teams = new Map<string, TeamBlock | null>();

  constructor(private readonly catalog: Catalog) {}

  team(league: string, name: string): TeamBlock | undefined {
    const k = `${league}|${name}`;
    let b = this.teams.get(k);
    if (b === undefined) {
      const t = name ? this.catalog.team(league, name) : undefined;
      b = t ? teamBlock(t) : null;
      this.teams.set(k, b);
    }
    return b ?? undefined;
  }

  sport(id: string): SportBlock | undefined {
    const s = this.catalog.sport(id);
    return s ? { id: s.id, numerical_id: s.numerical_id, name: s.name } : undefined;
  }

  league(id: string): LabelBlock | undefined {
    const l = this.catalog.league(id);
    return l ? { id: l.id, numerical_id: l.numerical_id, label: l.label } : undefined;
  }

  market(id: string): LabelBlock | undefined {
    const m = this.catalog.market(id);
    return m ? { id: m.id, numerical_id: m.numerical_id, label: m.name } : undefined;
  }

  book(id: string): LabelBlock | undefined {
    const b = this.catalog.book(id);
    return b ? { id: b.id, numerical_id: b.numerical_id, label: b.display_name } : undefined;
  }

  /** The blocks for an object about one event (and optionally one market and book); absent ones omitted. */
  forEvent(
    e: { sport: string; league: string; homeTeam: string; awayTeam: string },
    market?: string,
    book?: string,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = dict();
    const home = this.team(e.league, e.homeTeam);
    const away = this.team(e.league, e.awayTeam);
    if (home) out.home = home;
    if (away) out.away = away;
    const s = this.sport(e.sport);
    if (s) out.sport_ref = s;
    const l = this.league(e.league);
    if (l) out.league_ref = l;
    if (market) {
      const m = this.market(market);
      if (m) out.market_ref = m;
    }
    if (book) {
      const b = this.book(book);
      if (b) out.sportsbook_ref = b;
    }
    return out;
  }
}
