import { parseTime } from '../../../common/time/time-param.js';
import { parse } from 'csv-parse/sync';
import type { Catalog } from '../../../config/catalog.js';
import { marketTypeId } from '../../../domain/normalise.js';
import type { Quote } from '../../../domain/types.js';
import { fieldsProblem, textProblem } from '../../../domain/text.js';
import type { ParsedFile, ParsedQuote, ParseError } from './parsed.js';
import { dict } from '../../../domain/dict.js';

export const SAMPLE_CSV_COLUMNS = [
  'id',
  'sportsbook',
  'event_id',
  'sport',
  'league',
  'home_team',
  'away_team',
  'market_type',
  'selection',
  'selection_type',
  'odds_american',
  'odds_decimal',
  'odds_probability',
  'line',
  'event_start_time',
  'is_live',
  'timestamp',
] as const;

/**
 * Columns a file in the sample format may add (sources that send them): market data (exchange and prediction-market
 * best bid, best ask and last trade as contract prices 0-1), baseball starters, a player's team.
 */
export const SAMPLE_CSV_OPTIONAL_COLUMNS = [
  'volume',
  'volume_24h',
  'open_interest',
  'bid',
  'ask',
  'last',
  'home_pitcher',
  'away_pitcher',
  'player_team',
] as const;

const FUTURES_MARKETS =
  /^(outright|futures?|championship_winner|conference_winner|division_winner|tournament_winner|make_playoffs|exact_seed|mvp|cy_young|rookie_of_the_year|season_leader|.*_award.*)$/;

/** An RFC 3339 time with its offset (nanoseconds and a missing seconds field allowed), read strictly; else null. */
function time(raw: string | undefined): number | null {
  if (!raw || !raw.trim()) return null;
  const s = raw.trim();
  if (!/T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i.test(s)) return null;
  return parseTime(s.replace(/(\.\d{1,9})\d*/, '$1'), { unixSeconds: false, dateAlone: false }).ms ?? null;
}

function num(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const v = Number(raw);
  return Number.isFinite(v) ? v : Number.NaN;
}

/** A CSV record with the line it ends on. */
interface CsvRecord {
  record: Record<string, string>;
  line: number;
}

/**
 * Reads the records of a CSV text. The whole text is parsed at once; if any record is malformed (a stray quote,
 * a quote never closed), every line is parsed on its own instead, so one bad row is reported with its line and
 * reason and every other row still counts.
 */
function readRecords(text: string, columns: string[], errors: ParseError[]): CsvRecord[] {
  let broken = false;
  let out: CsvRecord[] = [];
  try {
    const parsed = parse(text, {
      columns,
      from_line: 2,
      skip_empty_lines: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
      skip_records_with_error: true,
      on_skip: () => {
        broken = true;
        return undefined;
      },
    }) as Array<{ record: Record<string, string>; info: { lines: number } }>;
    out = parsed.map((p) => ({ record: p.record, line: p.info.lines }));
  } catch {
    broken = true;
  }
  if (!broken) return out;
  out = [];
  const lines = text.split(/\r?\n/);
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    try {
      const [fields] = parse(raw, { relax_column_count: true, relax_quotes: true, trim: true }) as string[][];
      const record: Record<string, string> = dict();
      columns.forEach((c, j) => {
        if (fields?.[j] !== undefined) record[c] = fields[j]!;
      });
      out.push({ record, line: i + 1 });
    } catch (err) {
      errors.push({ line: i + 1, reason: `unreadable CSV row: ${(err as Error).message.replace(/ at line \d+/g, '')}` });
    }
  }
  return out;
}

/**
 * The sample CSV format (test/fixtures/ATTRIBUTION.md): one price per row. Each bad row is reported with its
 * line number and reason and skipped; good rows become quotes. Prices must agree across the formats given.
 * Books and leagues are not checked here: the pipeline resolves them (registering those the catalog lacks).
 */
export function parseSampleCsv(text: string, catalog: Catalog): ParsedFile {
  const errors: ParseError[] = [];
  const quotes: ParsedQuote[] = [];
  const notes: string[] = [];
  const body = text.replace(/^\uFEFF/, '');
  const empty = (reason: string): ParsedFile => ({
    format: 'sample_csv',
    quotes: [],
    errors: [{ line: 1, reason }],
    records: 0,
    capturedAt: null,
    notes,
  });
  if (!body.trim()) return empty('the file is empty');
  const headerLine = body.split(/\r?\n/, 1)[0] ?? '';
  let header: string[];
  try {
    header = ((parse(headerLine, { relax_quotes: true, trim: true }) as string[][])[0] ?? []).map((h) => h.toLowerCase());
  } catch (err) {
    return empty(`unreadable CSV header: ${(err as Error).message}`);
  }
  const headerBad = header.map((h) => textProblem(h, 200)).find(Boolean);
  if (headerBad) return empty(`the header ${headerBad}`);
  const missing = SAMPLE_CSV_COLUMNS.filter((c) => !['id', 'sport', 'odds_probability'].includes(c) && !header.includes(c));
  const records = readRecords(
    body,
    header.map((h, i) => h || `column_${i + 1}`),
    errors,
  );
  if (missing.length) {
    return {
      format: 'sample_csv',
      quotes: [],
      errors: [{ line: 1, reason: `missing columns: ${missing.join(', ')} (the header is: ${headerLine.slice(0, 200)})` }],
      records: records.length,
      capturedAt: null,
      notes,
    };
  }
  const unknown = header.filter(
    (h) => !(SAMPLE_CSV_COLUMNS as readonly string[]).includes(h) && !(SAMPLE_CSV_OPTIONAL_COLUMNS as readonly string[]).includes(h),
  );
  if (unknown.length) notes.push(`ignored unknown columns: ${unknown.join(', ')}`);
  if (!records.length && !errors.length) errors.push({ line: 1, reason: 'the file has a header but no data rows' });
  let capturedAt: number | null = null;
  for (const { record: r, line } of records) {
    const bad = (reason: string) => errors.push({ line, reason });
    const text = fieldsProblem(r);
    if (text) {
      errors.push({ line, reason: text, code: 'invalid_text' });
      continue;
    }
    const book = r.sportsbook?.toLowerCase();
    if (!book) {
      bad('sportsbook is empty');
      continue;
    }
    if (!r.league) {
      bad('league is empty');
      continue;
    }
    if (!r.market_type) {
      bad('market_type is empty');
      continue;
    }
    if (!r.selection) {
      bad('selection is empty');
      continue;
    }
    const start = time(r.event_start_time);
    if (start === null) {
      bad(`event_start_time "${r.event_start_time ?? ''}" is not an RFC 3339 time`);
      continue;
    }
    const ts = r.timestamp ? time(r.timestamp) : null;
    if (r.timestamp && ts === null) {
      bad(`timestamp "${r.timestamp}" is not an RFC 3339 time`);
      continue;
    }
    const american = num(r.odds_american);
    const decimal = num(r.odds_decimal);
    const prob = num(r.odds_probability);
    if (Number.isNaN(american) || Number.isNaN(decimal) || Number.isNaN(prob)) {
      bad('a price column is not a number');
      continue;
    }
    if (american === null && decimal === null && prob === null) {
      bad('no price (odds_american, odds_decimal and odds_probability are all empty)');
      continue;
    }
    if (decimal !== null && decimal <= 1) {
      bad(`odds_decimal ${decimal} must be above 1`);
      continue;
    }
    if (american !== null && Math.abs(american) < 100) {
      bad(`odds_american ${american} is not a valid American price`);
      continue;
    }
    if (prob !== null && (prob <= 0 || prob >= 1)) {
      bad(`odds_probability ${prob} must be between 0 and 1`);
      continue;
    }
    const market = { volume: num(r.volume), volume24h: num(r.volume_24h), openInterest: num(r.open_interest) };
    const badAmount = Object.entries(market).find(([, v]) => v !== null && (Number.isNaN(v) || v < 0));
    if (badAmount) {
      bad(
        `${badAmount[0] === 'volume24h' ? 'volume_24h' : badAmount[0] === 'openInterest' ? 'open_interest' : 'volume'} must be a number from 0 up`,
      );
      continue;
    }
    const quoted = { bid: num(r.bid), ask: num(r.ask), last: num(r.last) };
    const badQuote = Object.entries(quoted).find(([, v]) => v !== null && (Number.isNaN(v) || v < 0 || v > 1));
    if (badQuote) {
      bad(`${badQuote[0]} must be a contract price from 0 to 1`);
      continue;
    }
    if (american !== null && decimal !== null) {
      const fromAmerican = american > 0 ? 1 + american / 100 : 1 + 100 / Math.abs(american);
      if (Math.abs(fromAmerican - decimal) / decimal > 0.02) {
        bad(`odds_american ${american} and odds_decimal ${decimal} disagree`);
        continue;
      }
    }
    const line_ = num(r.line);
    if (Number.isNaN(line_)) {
      bad(`line "${r.line}" is not a number`);
      continue;
    }
    const isLive = /^(true|1|yes)$/i.test(r.is_live ?? '');
    if (r.is_live && !/^(true|false|1|0|yes|no)$/i.test(r.is_live)) {
      bad(`is_live "${r.is_live}" is not a boolean`);
      continue;
    }
    const marketType = marketTypeId(r.market_type);
    const selectionType = (r.selection_type || 'other').toLowerCase();
    const bookDef = catalog.book(book);
    const futures = !r.away_team || FUTURES_MARKETS.test(marketType);
    const playerProp = marketType.startsWith('player_') && !/^(over|under)$/i.test(r.selection);
    // A row naming no team at all (a futures question, a prediction-market contract) has nothing to match on
    // across sources; its own event id keeps different questions apart. A canonical-looking id
    // ("mlb__angels_2026-10-31_b3") gives back its team part.
    let homeTeam = r.home_team ?? '';
    if (!homeTeam && !r.away_team && r.event_id) {
      homeTeam =
        r.event_id.replace(new RegExp(`^${r.league.toLowerCase()}_`), '').replace(/_\d{4}-\d{2}-\d{2}_b[0-3](_g\d+)?$/, '') || r.event_id;
    }
    const quote: Quote = {
      book,
      league: r.league,
      sport: r.sport || null,
      homeTeam,
      awayTeam: r.away_team ?? '',
      startTime: start,
      approximateStart: futures || bookDef?.settlement === 'prediction',
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
      ...(market.volume !== null ? { volume: market.volume } : {}),
      ...(market.volume24h !== null ? { volume24h: market.volume24h } : {}),
      ...(market.openInterest !== null ? { openInterest: market.openInterest } : {}),
      ...(quoted.bid !== null ? { bid: quoted.bid } : {}),
      ...(quoted.ask !== null ? { ask: quoted.ask } : {}),
      ...(quoted.last !== null ? { last: quoted.last } : {}),
      ...(r.player_team ? { playerTeam: r.player_team } : {}),
      ...(r.home_pitcher ? { homePitcher: r.home_pitcher } : {}),
      ...(r.away_pitcher ? { awayPitcher: r.away_pitcher } : {}),
    };
    if (ts !== null && (capturedAt === null || ts > capturedAt)) capturedAt = ts;
    quotes.push({ line, quote });
  }
  errors.sort((a, b) => a.line - b.line);
  return {
    format: 'sample_csv',
    quotes,
    errors,
    records: records.length + errors.filter((e) => e.reason.startsWith('unreadable CSV row')).length,
    capturedAt,
    notes,
  };
}
