import { parse } from 'csv-parse/sync';
import type { Catalog } from '../../../config/catalog.js';
import type { Quote } from '../../../domain/types.js';
import type { ParsedFile, ParsedQuote, ParseError } from './parsed.js';

export const SAMPLE_CSV_COLUMNS = [
  'id', 'sportsbook', 'event_id', 'sport', 'league', 'home_team', 'away_team', 'market_type', 'selection',
  'selection_type', 'odds_american', 'odds_decimal', 'odds_probability', 'line', 'event_start_time', 'is_live', 'timestamp',
] as const;

const FUTURES_MARKETS = /^(outright|futures?|championship_winner|conference_winner|division_winner|tournament_winner|make_playoffs|exact_seed|mvp|cy_young|rookie_of_the_year|season_leader|.*_award.*)$/;

function time(raw: string | undefined): number | null {
  if (!raw || !raw.trim()) return null;
  const s = raw.trim();
  // RFC 3339 with nanoseconds or a missing seconds field ("2026-07-13T01:04Z").
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.exec(s);
  if (!m) return null;
  const frac = m[5] ? Number(`0${m[5].slice(0, 4)}`) : 0;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}${m[6]}`);
  return Number.isNaN(ms) ? null : ms + Math.round(frac * 1000);
}

function num(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const v = Number(raw);
  return Number.isFinite(v) ? v : Number.NaN;
}

/**
 * The sample CSV format (test/fixtures/ATTRIBUTION.md): one price per row. Each bad row is reported with its
 * line number and reason and skipped; good rows become quotes. Prices must agree across the formats given.
 */
export function parseSampleCsv(text: string, catalog: Catalog): ParsedFile {
  const errors: ParseError[] = [];
  const quotes: ParsedQuote[] = [];
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, info: true, relax_column_count: true, bom: true, trim: true }) as Array<{ record: Record<string, string>; info: { lines: number } }>;
  } catch (err) {
    const e = err as { lines?: number; message: string };
    return { format: 'sample_csv', quotes: [], errors: [{ line: e.lines ?? 1, reason: `unreadable CSV: ${e.message}` }], records: 0, capturedAt: null };
  }
  const header = text.split(/\r?\n/, 1)[0]?.replace(/^\uFEFF/, '').split(',').map((h) => h.trim()) ?? [];
  const missing = SAMPLE_CSV_COLUMNS.filter((c) => !['id', 'sport', 'odds_probability'].includes(c) && !header.includes(c));
  if (missing.length) {
    return { format: 'sample_csv', quotes: [], errors: [{ line: 1, reason: `missing columns: ${missing.join(', ')}` }], records: records.length, capturedAt: null };
  }
  let capturedAt: number | null = null;
  for (const { record: r, info } of records) {
    const line = info.lines;
    const bad = (reason: string) => errors.push({ line, reason });
    const book = r.sportsbook?.toLowerCase();
    if (!book) { bad('sportsbook is empty'); continue; }
    if (!catalog.book(book)) { bad(`unknown sportsbook "${r.sportsbook}"`); continue; }
    if (!r.league) { bad('league is empty'); continue; }
    if (!catalog.league(r.league)) { bad(`unknown league "${r.league}"`); continue; }
    if (!r.market_type) { bad('market_type is empty'); continue; }
    if (!r.selection) { bad('selection is empty'); continue; }
    const start = time(r.event_start_time);
    if (start === null) { bad(`event_start_time "${r.event_start_time ?? ''}" is not an RFC 3339 time`); continue; }
    const ts = r.timestamp ? time(r.timestamp) : null;
    if (r.timestamp && ts === null) { bad(`timestamp "${r.timestamp}" is not an RFC 3339 time`); continue; }
    const american = num(r.odds_american);
    const decimal = num(r.odds_decimal);
    const prob = num(r.odds_probability);
    if (Number.isNaN(american) || Number.isNaN(decimal) || Number.isNaN(prob)) { bad('a price column is not a number'); continue; }
    if (american === null && decimal === null && prob === null) { bad('no price (odds_american, odds_decimal and odds_probability are all empty)'); continue; }
    if (decimal !== null && decimal <= 1) { bad(`odds_decimal ${decimal} must be above 1`); continue; }
    if (american !== null && Math.abs(american) < 100) { bad(`odds_american ${american} is not a valid American price`); continue; }
    if (prob !== null && (prob <= 0 || prob >= 1)) { bad(`odds_probability ${prob} must be between 0 and 1`); continue; }
    if (american !== null && decimal !== null) {
      const fromAmerican = american > 0 ? 1 + american / 100 : 1 + 100 / Math.abs(american);
      if (Math.abs(fromAmerican - decimal) / decimal > 0.02) { bad(`odds_american ${american} and odds_decimal ${decimal} disagree`); continue; }
    }
    const line_ = num(r.line);
    if (Number.isNaN(line_)) { bad(`line "${r.line}" is not a number`); continue; }
    const isLive = /^(true|1|yes)$/i.test(r.is_live ?? '');
    if (r.is_live && !/^(true|false|1|0|yes|no)$/i.test(r.is_live)) { bad(`is_live "${r.is_live}" is not a boolean`); continue; }
    const marketType = r.market_type.toLowerCase();
    const selectionType = (r.selection_type || 'other').toLowerCase();
    const bookDef = catalog.book(book)!;
    const futures = !r.away_team || FUTURES_MARKETS.test(marketType);
    const playerProp = marketType.startsWith('player_') && !/^(over|under)$/i.test(r.selection);
    // A row naming no team at all (a futures question, a prediction-market contract) has nothing to match on
    // across sources; its own event id keeps different questions apart. A canonical-looking id
    // ("mlb__angels_2026-10-31_b3") gives back its team part.
    let homeTeam = r.home_team ?? '';
    if (!homeTeam && !r.away_team && r.event_id) {
      homeTeam = r.event_id.replace(new RegExp(`^${r.league.toLowerCase()}_`), '').replace(/_\d{4}-\d{2}-\d{2}_b[0-3](_g\d+)?$/, '') || r.event_id;
    }
    const quote: Quote = {
      book,
      league: r.league,
      homeTeam,
      awayTeam: r.away_team ?? '',
      startTime: start,
      approximateStart: futures || bookDef.settlement === 'prediction',
      marketType,
      selection: r.selection,
      selectionType,
      line: line_,
      playerName: playerProp ? r.selection : null,
      statCategory: playerProp ? marketType.slice('player_'.length) : null,
      price: decimal !== null ? { decimal } : american !== null ? { american } : { probability: prob! },
      isLive,
      sourceTime: ts,
      externalEventId: r.event_id || null,
      selectionId: r.id || null,
    };
    if (ts !== null && (capturedAt === null || ts > capturedAt)) capturedAt = ts;
    quotes.push({ line, quote });
  }
  return { format: 'sample_csv', quotes, errors, records: records.length, capturedAt };
}
