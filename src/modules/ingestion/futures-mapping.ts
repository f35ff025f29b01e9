import { foldName, type Catalog } from '../../config/catalog.js';
import { shortHash, slugId, titleFromId } from '../../domain/normalise.js';
import { quoteProblem, type EdgeReason } from '../../domain/edge-rules.js';
import type { Quote } from '../../domain/types.js';
import { normalizePrice } from '../../math/odds.js';
import type { FutureTag, FutureType, ResolvedFuture } from '../../domain/futures.js';
import { isFutureQuote } from '../../domain/future-quote.js';
import { dict } from '../../domain/dict.js';

export { isFutureQuote };

/**
 * Which quotes are futures, and how a futures quote becomes a market and a price. Plain functions.
 *
 * A quote is a future when its source says so (`future` on the quote: the simulator, The Odds API's outrights),
 * when its market type is a futures kind (championship_winner, mvp, outright, ...), or when it names no opponent
 * (no away team, or the same team on both sides: how feeds spell a question with no game).
 */

/** Kinds whose selections are players. */
const PLAYER_KINDS = /^(mvp|cy_young|rookie_of_the_year|.*_of_the_year|season_leader|.*award.*|golden_boot|top_scorer)$/;
/** Kinds asked the same way at every book for one league and season: one market across books. */
const SHARED_KINDS = new Set(['championship_winner']);

const KIND_LABEL: Record<string, string> = dict({
  championship_winner: 'Championship winner',
  conference_winner: 'Conference winner',
  division_winner: 'Division winner',
  tournament_winner: 'Tournament winner',
  make_playoffs: 'To make the playoffs',
  exact_seed: 'Exact seed',
  mvp: 'MVP',
  cy_young: 'Cy Young',
  rookie_of_the_year: 'Rookie of the year',
  season_leader: 'Season leader',
  win_total: 'Season win total',
  outright: 'Futures',
  binary: 'Proposition',
});

export class FutureRejection extends Error {
  constructor(
    readonly reason: EdgeReason | 'unknown_sportsbook' | 'unknown_league' | 'invalid_price',
    message: string,
  ) {
    super(message);
  }
}

/** `kalshi_fut_kxmlbalcent_26` -> `kxmlbalcent` (the series ticker: the book's own market id). */
function kalshiSeries(ext: string | null | undefined): string | null {
  const m = /^kalshi_fut_(kx[a-z0-9]+)(?:_|$)/i.exec(ext ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

function kindOf(marketType: string): string {
  const k = marketType.toLowerCase();
  if (k === 'outrights' || k === 'future' || k === 'futures' || k === 'moneyline' || k === 'h2h' || !k) return 'outright';
  if (k === 'season_wins' || k === 'regular_season_wins') return 'win_total';
  return slugId(k, 40) || 'outright';
}

function typeOf(q: Quote, kind: string, side: string): FutureType {
  if (side === 'yes' || side === 'no' || kind === 'binary' || kind === 'make_playoffs') return 'YES_NO';
  if (side === 'over' || side === 'under') return 'OVER_UNDER';
  if (PLAYER_KINDS.test(kind) || q.playerName) return 'PLAYER';
  return 'TEAM';
}

/** The canonical side of a futures selection. */
function sideOf(q: Quote): string {
  const t = (q.selectionType ?? '').toLowerCase();
  if (t === 'yes' || t === 'no' || t === 'over' || t === 'under') return t;
  const m = /(?:^|[\s:])(yes|no|over|under)$/i.exec(q.selection.trim()) ?? /^(over|under)\b/i.exec(q.selection.trim());
  return m ? m[1]!.toLowerCase() : 'other';
}

/**
 * The event key a row names: its external id (or its title) without the league prefix; `base` without the date
 * either. Two "events" of one feed differing only by date are different questions (a division title closing
 * in October, the World Series at the end of it).
 */
function eventKey(q: Quote, league: string): { key: string; base: string } {
  const ext = (q.externalEventId ?? '').toLowerCase().replace(new RegExp(`^${league}_*`), '');
  const dated = /^(.*?)_?(\d{4}-\d{2}-\d{2})_b[0-3](_g\d+)?$/.exec(ext);
  const base = slugId((dated ? dated[1]! : ext) || q.homeTeam || '', 48) || 'market';
  return { key: dated ? `${base}_${dated[2]!.replace(/-/g, '')}` : base, base };
}

/**
 * The market of a quote without a source tag. Shared kinds (a league's championship) are one market per
 * league and season at every book; otherwise the row's own event key (its external id or title) keeps
 * different questions apart. Feeds that post every contender as an event of its own (the event named after the
 * selection) are gathered into one market per league, kind and closing day.
 */
export function deriveTag(q: Quote, league: string, leagueName: string): FutureTag {
  const kind = kindOf(q.marketType);
  const side = sideOf(q);
  const type = typeOf(q, kind, side);
  const season = new Date(q.startTime).getUTCFullYear();
  const series = kalshiSeries(q.externalEventId);
  const label = KIND_LABEL[kind] ?? titleFromId(kind);
  if (SHARED_KINDS.has(kind))
    return { market: `${kind}_${season}`, name: `${leagueName} ${label} ${season}`, type, kind, externalId: series };
  const { key, base } = eventKey(q, league);
  // A feed that posts each contender as an "event" of its own names it after that contender and no opponent
  // (saba, betonline: `mlb__angels_...` for "Los Angeles Angels"). One that names a multi-runner market after
  // its first runner repeats the name as the opponent (ballybet): that is a market of its own.
  const home = slugId(q.homeTeam ?? '', 48).replace(/_/g, '');
  const compactKey = base.replace(/_/g, '');
  const lastWord = (x: string) => foldName(x).split(' ').pop() ?? '';
  const perSelection =
    home !== '' &&
    !(q.awayTeam ?? '').trim() &&
    compactKey.length >= 3 &&
    (home === compactKey || home.endsWith(compactKey) || compactKey.endsWith(home)) &&
    lastWord(q.homeTeam) === lastWord(q.selection);
  if (perSelection && (type === 'TEAM' || type === 'PLAYER')) {
    const day = new Date(q.startTime).toISOString().slice(0, 10);
    return { market: `${kind}_${day.replace(/-/g, '')}`, name: `${leagueName} ${label} (closes ${day})`, type, kind, externalId: series };
  }
  const question = /^(.*\?)\s*:\s*(yes|no)$/i.exec(q.selection.trim());
  const runner = runnerOf(q)?.runner;
  // A question about one runner names the series: "Will ... be selected to the 2026 AL All-Star Team?".
  const asked = question && runner && question[1]!.includes(runner) ? question[1]!.replace(runner, '...') : question?.[1];
  const title =
    asked ??
    (q.homeTeam?.trim() && !runner
      ? q.homeTeam.trim()
      : base === 'market'
        ? `${leagueName} ${label}`
        : `${leagueName} ${label} (${titleFromId(base)})`);
  const named = Boolean(asked ?? (q.homeTeam?.trim() && !runner));
  return {
    market: `${kind}_${shortHash([key], 10)}`,
    name: !named || kind === 'outright' || kind === 'binary' ? title : `${title}: ${label}`,
    type,
    kind,
    externalId: series,
  };
}

/**
 * Prediction markets post one Yes/No contract per runner of a question: the selection is the question (or just
 * "Yes") and the runner is in the team field, after the venue's ticker code ("CCOU Craig Counsell",
 * "NYY New York Y"). The selection becomes "Craig Counsell: Yes", so the runners stay apart.
 */
function runnerOf(q: Quote): { runner: string; side: string } | null {
  const m = /^(?:(.*\?)\s*:\s*)?(yes|no)$/i.exec(q.selection.trim());
  const home = (q.homeTeam ?? '').trim();
  if (!m || !home || (q.awayTeam ?? '').trim()) return null;
  return { runner: home.replace(/^[A-Z0-9]{2,}\s+(?=\S)/, ''), side: `${m[2]![0]!.toUpperCase()}${m[2]!.slice(1).toLowerCase()}` };
}

/** A futures quote's exchange and prediction-market data (bid, ask, last trade, volume, open interest): the fields it sends. */
function marketDataOf(q: Quote): Pick<ResolvedFuture['price'], 'bid' | 'ask' | 'last' | 'volume' | 'openInterest'> {
  const out: Pick<ResolvedFuture['price'], 'bid' | 'ask' | 'last' | 'volume' | 'openInterest'> = {};
  for (const k of ['bid', 'ask', 'last', 'volume', 'openInterest'] as const) {
    const v = q[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new FutureRejection('invalid_market_data', `${k === 'openInterest' ? 'open_interest' : k} must be a number from 0 up`);
    out[k] = v;
  }
  return out;
}

function runnerSelection(q: Quote): string {
  const r = runnerOf(q);
  return r ? `${r.runner}: ${r.side}` : q.selection.trim();
}

/** Where a futures quote comes from: its batch's source, and whether the batch is history (a replayed import). */
export interface FutureOrigin {
  source?: string;
  history?: boolean;
}

/**
 * A futures quote as a market and a price. Throws FutureRejection (the edge rules of every quote: text, times,
 * numbers; an unknown book or league, a price that is not one).
 *
 * A history batch's markets are markets of their own: the id and name carry the source (`..._hist_<hash>`,
 * "(history: import:<name>)"), so a replayed capture never joins the live market of the same key. An import's
 * prices carry their source in their id, so withdrawing the import withdraws exactly them.
 */
export function resolveFuture(q: Quote, catalog: Catalog, now: number, origin: FutureOrigin = {}): ResolvedFuture {
  // The board's edge rules (text of every field, the future tag's too; start and change times; numbers).
  const bad = quoteProblem(q);
  if (bad) throw new FutureRejection(bad.reason, bad.message);
  if (typeof q.selection !== 'string' || !q.selection.trim())
    throw new FutureRejection('malformed_quote', 'a futures quote needs a selection');
  const book = catalog.book(String(q.book ?? ''));
  if (!book) throw new FutureRejection('unknown_sportsbook', `unknown sportsbook "${q.book}"`);
  const league = catalog.league(String(q.league ?? ''), q.sport ?? undefined);
  if (!league) throw new FutureRejection('unknown_league', `unknown league "${q.league}"`);
  let price;
  try {
    price = normalizePrice(q.price ?? {});
  } catch (err) {
    throw new FutureRejection('invalid_price', (err as Error).message);
  }
  const tag = q.future ?? deriveTag(q, league.id, league.label || league.name);
  const side = q.future
    ? ['yes', 'no', 'over', 'under'].includes((q.selectionType ?? '').toLowerCase())
      ? q.selectionType.toLowerCase()
      : 'other'
    : sideOf(q);
  const source = origin.source;
  const marketId = `${league.id}_${slugId(tag.market, 80)}${origin.history ? `_hist_${shortHash([source ?? ''], 8)}` : ''}`;
  const line = typeof q.line === 'number' && Number.isFinite(q.line) ? q.line : null;
  const selection = q.future ? q.selection.trim() : runnerSelection(q);
  return {
    market: {
      id: marketId,
      name: origin.history ? `${tag.name} (history: ${source ?? 'import'})` : tag.name,
      sport: league.sport,
      league: league.id,
      futureType: tag.type,
      kind: tag.kind,
      closesAt: q.startTime,
      ...(origin.history ? { history: true } : {}),
    },
    price: {
      id: shortHash(
        source === 'import' || source?.startsWith('import:')
          ? ['fut', book.id, marketId, selection.toLowerCase(), side, line, source]
          : ['fut', book.id, marketId, selection.toLowerCase(), side, line],
      ),
      marketId,
      sportsbook: book.id,
      selection,
      selectionType: side,
      line,
      american: price.american,
      decimal: price.decimal,
      probability: price.probability,
      externalId: tag.externalId ?? null,
      ...(source ? { source } : {}),
      ...marketDataOf(q),
    },
    at: q.sourceTime ?? now,
  };
}
