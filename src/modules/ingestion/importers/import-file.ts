import { readFileSync } from 'node:fs';
import { decodeText } from '../../../domain/text.js';
import type { Catalog } from '../../../config/catalog.js';
import { isFutureQuote } from '../../../domain/future-quote.js';
import { parseOddsApiEvents } from '../odds-api/odds-api-format.js';
import type { ParsedFile } from './parsed.js';
import { parseSampleCsv } from './sample-csv.js';

export interface ReadOptions {
  /** Shift every time so the file's capture time becomes `now` (start times keep their distance from it). */
  replay?: boolean;
  now: number;
  format?: 'csv' | 'json';
}

/** Parses a sample CSV or an Odds API v4 JSON text (format from the option, else sniffed). */
export function parseImport(text: string, catalog: Catalog, opts: ReadOptions): ParsedFile & { shiftMs: number } {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const format = opts.format ?? (trimmed.startsWith('[') || trimmed.startsWith('{') ? 'json' : 'csv');
  let parsed: ParsedFile;
  if (format === 'json') {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (err) {
      // The line of the position the parser names (a truncated file: its last line).
      const pos = /position (\d+)/.exec((err as Error).message);
      const line = pos ? trimmed.slice(0, Number(pos[1])).split('\n').length : trimmed.split('\n').length;
      return {
        format: 'odds_api_json',
        quotes: [],
        errors: [{ line, reason: `not valid JSON (truncated or malformed): ${(err as Error).message}` }],
        records: 0,
        capturedAt: null,
        shiftMs: 0,
      };
    }
    parsed = parseOddsApiEvents(json, catalog);
  } else {
    parsed = parseSampleCsv(text, catalog);
  }
  let shiftMs = 0;
  if (opts.replay && parsed.capturedAt !== null) {
    shiftMs = opts.now - parsed.capturedAt;
    for (const { quote } of parsed.quotes) {
      // A futures market keeps its season and settlement as the capture states them (a replay imports it as history).
      if (isFutureQuote(quote)) continue;
      quote.startTime += shiftMs;
      if (quote.sourceTime) quote.sourceTime += shiftMs;
    }
  }
  if (format === 'json') {
    // v4 events carry no live flag: an event is live when it had started at capture time (now, when replayed).
    const reference = opts.replay ? opts.now : (parsed.capturedAt ?? opts.now);
    for (const { quote } of parsed.quotes) quote.isLive = quote.startTime <= reference;
  }
  return { ...parsed, shiftMs };
}

export function readImportFile(path: string, catalog: Catalog, opts: ReadOptions): ParsedFile & { shiftMs: number } {
  // Bytes that are not UTF-8 become U+FFFD here and are refused row by row (never stored as something else).
  const text = decodeText(readFileSync(path));
  const format = opts.format ?? (/\.json$/i.test(path) ? 'json' : /\.csv$/i.test(path) ? 'csv' : undefined);
  return parseImport(text, catalog, { ...opts, format });
}
