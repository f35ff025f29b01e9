import { hash } from 'node:crypto';

/**
 * Normalisation and identity: team keys, canonical event ids, deterministic odds-row ids and market group
 * keys. Event ids are `{league}_{teamA}_{teamB}_{YYYY-MM-DD}_b{N}` (team keys sorted, a 6-hour start bucket,
 * `_g{N}` for a second game); a row id hashes book, event, market, selection and line. Pure functions.
 */

/** Lower-case ASCII letters and digits only. */
export function compact(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * Key of a team the catalog does not know: lower-case, accents and punctuation stripped, a leading
 * "The"/"Los"/"Las" and a trailing "FC"/"United"/"City" removed, then letters and digits only.
 * ("The Rays" -> "rays", "Boca Juniors FC" -> "bocajuniors", "National League" -> "nationalleague").
 */
export function unknownTeamKey(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length > 1 && ['the', 'los', 'las'].includes(words[0]!)) words.shift();
  if (words.length > 1 && ['fc', 'united', 'city', 'cf', 'sc', 'afc'].includes(words[words.length - 1]!)) words.pop();
  return words.join('').slice(0, 40);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Recent answers per zone and instant: a feed repeats each event's start time on every one of its prices. */
const recent = new Map<string, Map<number, Readonly<{ date: string; hour: number }>>>();
let recentSize = 0;

/** Calendar date and hour of an instant in a time zone (the kept answer: not to be changed). */
function dateHour(epochMs: number, timeZone: string): Readonly<{ date: string; hour: number }> {
  let zone = recent.get(timeZone);
  const hit = zone?.get(epochMs);
  if (hit) return hit;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(epochMs));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  const out = { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) % 24 };
  if (recentSize >= 10_000) {
    recent.clear();
    recentSize = 0;
    zone = undefined;
  }
  if (!zone) recent.set(timeZone, (zone = new Map()));
  zone.set(epochMs, out);
  recentSize++;
  return out;
}

/** Calendar date and hour of an instant in a time zone. */
export function localDateHour(epochMs: number, timeZone: string): { date: string; hour: number } {
  return { ...dateHour(epochMs, timeZone) };
}

/**
 * `{league}_{teamA}_{teamB}_{YYYY-MM-DD}_b{N}` with the team keys sorted, date and 6-hour bucket in the
 * league's zone (US Eastern for the US leagues, UTC otherwise).
 */
export function baseEventId(league: string, keyA: string, keyB: string, startTime: number, timeZone: string): string {
  const { date, hour } = dateHour(startTime, timeZone);
  const teams = keyA <= keyB ? `${keyA}_${keyB}` : `${keyB}_${keyA}`;
  return `${league}_${teams}_${date}_b${Math.floor(hour / 6)}`;
}

export function withGameNumber(base: string, game: number): string {
  return game > 1 ? `${base}_g${game}` : base;
}

export function shortHash(parts: ReadonlyArray<string | number | null | undefined>, length = 16): string {
  // The one-shot hash: no Hash object per call (about twice as fast for inputs this short).
  const digest = hash('sha1', parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('\u0001'), 'buffer');
  // Only the bytes kept are encoded: a flat string of `length` characters, not a slice that keeps the whole
  // 40-character digest alive (row ids live as long as their rows).
  const hex = digest.toString('hex', 0, Math.ceil(length / 2));
  return hex.length === length ? hex : hex.slice(0, length);
}

const SIDE_TYPES = new Set(['home', 'away', 'draw', 'over', 'under']);

/**
 * Deterministic odds-row id: hash of book, event, market, period, selection, line and player. In markets with
 * a known outcome set (`sided`: two-way, three-way, over/under) the selection is its canonical side, so a
 * feed's spelling of a team does not matter; elsewhere (futures, props lists, contracts) it is the side and
 * the folded text. A market re-posted at the same line keeps its id; a new line is a new row.
 */
export function oddsRowId(r: {
  book: string;
  eventId: string;
  marketType: string;
  period: string;
  selectionType: string;
  selection: string;
  line: number | null;
  playerName: string | null;
  sided?: boolean;
}): string {
  const sel = (r.sided ?? true) && SIDE_TYPES.has(r.selectionType) ? r.selectionType : `${r.selectionType}:${compact(r.selection)}`;
  return shortHash([
    r.book,
    r.eventId,
    r.marketType,
    r.period,
    sel,
    r.line === null ? '' : r.line.toString(),
    r.playerName ? compact(r.playerName) : '',
  ]);
}

/** Market types priced as a handicap on one team (lines are the selection's own handicap). */
export const HANDICAP_MARKETS = new Set(['point_spread', 'puck_line', 'run_line', 'set_handicap', 'asian_handicap', 'alternate_spread']);

/** True for quarter lines such as -0.25 or 1.75 (Asian handicaps settle half win / half loss on them). */
export function isQuarterLine(line: number): boolean {
  return Math.abs(line * 2 - Math.round(line * 2)) > 1e-9;
}

/**
 * The market group: the outcomes that complement each other. Same event, market, period, player (or team
 * for team totals) and the same line seen from the home side (a spread's home -3.5 pairs with away +3.5).
 */
export function groupLine(marketType: string, selectionType: string, line: number | null): number | null {
  if (line === null) return null;
  if (HANDICAP_MARKETS.has(marketType)) return selectionType === 'away' ? -line : line;
  return line;
}

export function ladderKey(eventId: string, marketType: string, period: string, subject: string | null): string {
  return `${eventId}|${marketType}|${period}|${subject ?? ''}`;
}

export function groupKey(ladder: string, gLine: number | null): string {
  return `${ladder}|${gLine === null ? '' : gLine}`;
}

/**
 * A catalog id from any spelling: lower-case ASCII, accents stripped, the `{country}_-_{name}` separator and
 * every run of other characters made one underscore (`Brazil Série A` and `brazil_-_serie_a` -> `brazil_serie_a`).
 * Empty when nothing is left.
 */
export function slugId(input: string, max = 64): string {
  return input
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max)
    .replace(/_+$/, '');
}

/** A readable name for an id that came without one (`brazil_serie_a` -> `Brazil Serie A`). */
export function titleFromId(id: string): string {
  return id
    .split('_')
    .filter(Boolean)
    .map((w) =>
      w.length <= 3 && /^[a-z]+$/.test(w) && !['and', 'of', 'the', 'de', 'la', 'le'].includes(w)
        ? w.toUpperCase()
        : w[0]!.toUpperCase() + w.slice(1),
    )
    .join(' ');
}

/**
 * The market type id of a feed's spelling: lower case; `+` and `&` read as `plus` and `and`, any other run of
 * characters but letters and digits an underscore (`player_goals_+_assists` -> `player_goals_plus_assists`,
 * `Goals & Assists` -> `goals_and_assists`, accents dropped). An id already in that form is unchanged; a spelling with
 * no letter or digit gives an empty id (refused).
 */
export function marketTypeId(raw: string): string {
  const lower = raw.trim().toLowerCase();
  if (/^[a-z0-9_]*$/.test(lower)) return lower;
  return lower
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\+/g, '_plus_')
    .replace(/&/g, '_and_')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}
