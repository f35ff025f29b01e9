import { Injectable, Optional } from '@nestjs/common';
import { eventUuid } from '../../domain/event-uuid.js';
import { marketSegmentOf, teamSideOf } from '../../domain/market-axes.js';
import { unknownTeamKey } from '../../domain/normalise.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { Catalog } from '../../config/catalog.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import { deepLinkPath } from '../deep-links/deep-link-templates.js';
import { RefBlocks } from '../reference/ref-blocks.js';

/** Every field an Odds item can carry: the `fields` projection accepts exactly these. */
export const ODDS_FIELDS = [
  'id',
  'sportsbook',
  'sportsbook_name',
  'event_id',
  'event_uuid',
  'external_event_id',
  'market_id',
  'selection_id',
  'sport',
  'league',
  'home_team',
  'away_team',
  'event_name',
  'market_type',
  'period',
  'selection',
  'selection_type',
  'team_side',
  'market_segment',
  'odds_american',
  'odds_decimal',
  'probability',
  'odds_probability',
  'line',
  'is_main_line',
  'is_alternate_line',
  'event_start_time',
  'is_live',
  'is_active',
  'timestamp',
  'odds_changed_at',
  'last_seen_at',
  'deep_link',
  'player_name',
  'stat_category',
  'max_bet',
  'market_flag',
  'volume',
  'volume_24h',
  'open_interest',
  'home_pitcher',
  'away_pitcher',
  'home',
  'away',
  'sport_ref',
  'league_ref',
  'market_ref',
  'sportsbook_ref',
] as const;
export type OddsField = (typeof ODDS_FIELDS)[number];

export type OddsItem = Record<string, unknown>;

const isoCache = new Map<number, string>();
/** ISO strings of instants, memoised: board rows share a handful of ingest times. */
function iso(ms: number): string {
  let s = isoCache.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString();
    if (isoCache.size > 100_000) isoCache.clear();
    isoCache.set(ms, s);
  }
  return s;
}

/**
 * Builds Odds items (the fields are OddsItemDto's, dto/odds.response.dto.ts) from board rows at the edge. Rows stay compact on the board; this adds
 * the event's teams and times, the book's name, main/alternate flags and the reference blocks.
 */
@Injectable()
export class OddsItemBuilder {
  constructor(
    private readonly catalog: Catalog,
    private readonly refs: RefBlocks,
    @Optional() private readonly engine?: DetectionEngine,
  ) {}

  build(board: OddsBoard, r: OddsRow, e?: BoardEvent): OddsItem {
    const ev = e ?? board.events.get(r.eventId);
    const book = this.catalog.book(r.sportsbook);
    const main = r.groupLine === null ? true : board.mainLine(r.ladderKey);
    const isMain = r.groupLine === null ? true : main === r.groupLine;
    const seen = iso(board.seenAt(r));
    const item: OddsItem = {
      id: r.id,
      sportsbook: r.sportsbook,
      sportsbook_name: book?.display_name ?? r.sportsbook,
      event_id: r.eventId,
      event_uuid: eventUuid(r.eventId),
      external_event_id: r.externalEventId,
      market_id: r.marketId,
      selection_id: r.selectionId,
      sport: r.sport,
      league: r.league,
      home_team: ev?.homeTeam ?? '',
      away_team: ev?.awayTeam ?? '',
      event_name: ev ? `${ev.awayTeam} @ ${ev.homeTeam}` : '',
      market_type: r.marketType,
      period: r.period,
      selection: r.selection,
      selection_type: r.selectionType,
      odds_american: r.american,
      odds_decimal: r.decimal,
      probability: r.probability,
      odds_probability: r.probability,
      line: r.line,
      is_main_line: isMain,
      is_alternate_line: r.groupLine !== null && main !== null && !isMain,
      event_start_time: ev ? iso(ev.startTime) : null,
      is_live: r.isLive,
      is_active: r.isActive,
      // Delivery time: the last ingest that carried or confirmed the row, moving even when the price did not.
      timestamp: seen,
      odds_changed_at: iso(r.oddsChangedAt),
      last_seen_at: seen,
      deep_link: deepLinkPath(r.sportsbook, r.id),
      player_name: r.playerName,
      stat_category: r.statCategory,
      // The guards' verdict on this venue's own market in the group (README "Guards"): self_arbitrage or
      // excess_hold keeps it out of every opportunity; null when sound or not judged.
      market_flag: this.engine?.marketFlag(r.groupKey, r.sportsbook)?.flag ?? null,
    };
    // Exchange and prediction-market rows: what the venue reports traded (null when it sends nothing); null on
    // sportsbook rows.
    const venue = book?.settlement === 'exchange' || book?.settlement === 'prediction';
    item.volume = venue ? (r.volume ?? null) : null;
    item.volume_24h = venue ? (r.volume24h ?? null) : null;
    item.open_interest = venue ? (r.openInterest ?? null) : null;
    // Baseball rows name the starting pitchers (null until a source names them); other sports have no such field.
    if (r.sport === 'baseball') {
      item.home_pitcher = r.homePitcher ?? null;
      item.away_pitcher = r.awayPitcher ?? null;
    }
    if (r.maxBet !== null) item.max_bet = r.maxBet;
    // The two axes are left out when the row has none (no team side; a period code without a known segment).
    const side = teamSideOf(r.selectionType, r.marketType, r.ladderKey) ?? this.teamTotalSide(r, ev);
    if (side) item.team_side = side;
    const segment = marketSegmentOf(r.marketType, r.period);
    if (segment) item.market_segment = segment;
    if (ev) Object.assign(item, this.refs.forEvent(ev, r.marketType, r.sportsbook));
    return item;
  }

  /** league|name -> the team key the pipeline gives that name (catalog key, else the name's own key). */
  private readonly teamKeys = new Map<string, string>();

  /**
   * The side of a team total whose team is named apart from the selection (`Over` for the Nuggets, as The Odds API
   * sends it): the event's home or away team when the name is one of them; null otherwise.
   */
  private teamTotalSide(r: OddsRow, ev: BoardEvent | undefined): 'home' | 'away' | null {
    if (r.marketType !== 'team_total' || !r.playerName || !ev) return null;
    const k = `${r.league}|${r.playerName}`;
    let key = this.teamKeys.get(k);
    if (key === undefined) {
      key = this.catalog.team(r.league, r.playerName)?.key ?? unknownTeamKey(r.playerName);
      if (this.teamKeys.size > 50_000) this.teamKeys.clear();
      this.teamKeys.set(k, key);
    }
    if (key && key === ev.homeKey && key !== ev.awayKey) return 'home';
    if (key && key === ev.awayKey && key !== ev.homeKey) return 'away';
    return null;
  }

  /** Keeps only the requested fields (already validated against ODDS_FIELDS). */
  project(item: OddsItem, fields: readonly string[] | undefined): OddsItem {
    if (!fields?.length) return item;
    const out: OddsItem = {};
    for (const f of fields) if (Object.hasOwn(item, f)) out[f] = item[f];
    return out;
  }
}
