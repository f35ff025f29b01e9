import type { Quote } from '../../../domain/types.js';

/** A quote read from a file, with where it came from. */
export interface ParsedQuote {
  line: number;
  quote: Quote;
}

export interface ParseError {
  line: number;
  reason: string;
  /** The rejection reason code when it is one of the pipeline's (`invalid_text`); else the row is `invalid_row`. */
  code?: string;
}

export interface ParsedFile {
  format: 'sample_csv' | 'odds_api_json';
  quotes: ParsedQuote[];
  errors: ParseError[];
  /** Rows (CSV records or outcomes) read, good and bad. */
  records: number;
  /** Latest capture time seen in the file (the replay anchor). */
  capturedAt: number | null;
  /** Remarks that are not rejections (ignored unknown columns). */
  notes?: string[];
}
