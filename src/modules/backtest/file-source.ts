import { Catalog } from '../../config/catalog.js';
import type { Quote } from '../../domain/types.js';
import { readImportFile } from '../ingestion/importers/import-file.js';
import type { ReplaySource, ReplayTick } from './replay-source.js';

/**
 * An imported file (the sample CSV or an Odds API v4 JSON capture, as `npm run cli -- import` reads them),
 * replayed one capture time at a time. Such files carry no results: every bet is void (ungraded), and the
 * report says so; EV at detection and CLV (the sharp book's last pregame price in the file) are still measured.
 */
export class FileSource implements ReplaySource {
  readonly kind = 'file';
  readonly catalog = new Catalog();
  readonly from: number;
  readonly to: number;
  readonly betUntil = Number.POSITIVE_INFINITY;
  readonly startsBy = Number.POSITIVE_INFINITY;
  readonly hasResults = false;
  /** Rows the reader refused (counted in the description). */
  readonly refused: number;
  private readonly steps: ReplayTick[];

  constructor(
    private readonly path: string,
    now: number,
  ) {
    const parsed = readImportFile(path, this.catalog, { now });
    this.refused = parsed.errors.length;
    const byTime = new Map<number, Quote[]>();
    for (const { quote } of parsed.quotes) {
      const at = quote.sourceTime ?? parsed.capturedAt ?? now;
      const list = byTime.get(at) ?? [];
      list.push(quote);
      byTime.set(at, list);
    }
    const times = [...byTime.keys()].sort((a, b) => a - b);
    this.steps = times.map((t) => ({ now: t, batch: { source: 'backtest', quotes: byTime.get(t)! } }));
    if (!this.steps.length) throw new Error(`${path}: no usable rows (${this.refused} refused)`);
    this.from = times[0]!;
    this.to = times[times.length - 1]!;
  }

  ticks(): Iterable<ReplayTick> {
    return this.steps;
  }

  describe(): string {
    const quotes = this.steps.reduce((s, t) => s + t.batch.quotes.length, 0);
    return `file ${this.path}: ${quotes} prices at ${this.steps.length} capture time(s)${this.refused ? `, ${this.refused} row(s) refused` : ''}`;
  }
}
