import { stringify } from 'csv-stringify/sync';

export const ARBITRAGE_CSV_HEADER = [
  'event',
  'sport',
  'market',
  'line',
  'profit%',
  'implied_total',
  'book1',
  'selection1',
  'odds1',
  'stake1%',
  'book2',
  'selection2',
  'odds2',
  'stake2%',
  'is_live',
  'is_alternate_line',
  'possibly_stale',
  'warnings',
  'detected_at',
];

/**
 * CSV text (RFC 4180, CRLF) safe to open in a spreadsheet: a text cell beginning with =, +, -, @, tab or CR
 * (or their full-width forms) is prefixed with a single quote so it is never run as a formula (OWASP CSV
 * injection); numbers (odds -110, lines -3.5) are written as numbers and never prefixed. Booleans are
 * true/false, null and undefined are empty cells.
 */
export function toCsv(records: readonly unknown[][]): string {
  return stringify(records as unknown[][], { escape_formulas: true, record_delimiter: '\r\n', cast: { boolean: (v) => String(v) } });
}

/**
 * The rows of the arbitrage CSV (ARBITRAGE_CSV_HEADER above: the published columns and their order) from
 * presented items. Three-way arbitrages keep the two-leg columns: the second and third legs share the "2"
 * columns, joined by " / " (a single leg keeps its number: the cell stays numeric).
 */
export function arbitrageCsv(items: ReadonlyArray<Record<string, unknown>>): string {
  const records: unknown[][] = [ARBITRAGE_CSV_HEADER];
  for (const a of items) {
    const legs = a.legs as Array<Record<string, unknown>>;
    const rest = legs.slice(1);
    const join = (k: string) => (rest.length === 1 ? rest[0]![k] : rest.map((l) => l[k]).join(' / '));
    records.push([
      a.event_name,
      a.sport,
      a.market_type,
      a.line,
      a.profit_percent,
      a.implied_total,
      legs[0]!.sportsbook,
      legs[0]!.selection,
      legs[0]!.odds_american,
      legs[0]!.stake_percent,
      join('sportsbook'),
      join('selection'),
      join('odds_american'),
      join('stake_percent'),
      a.is_live,
      a.is_alternate_line,
      a.possibly_stale,
      (a.warnings as string[]).join(';'),
      a.detected_at,
    ]);
  }
  return toCsv(records);
}
