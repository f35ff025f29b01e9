import type { Catalog } from '../../config/catalog.js';
import type { FuturesChange } from '../../domain/futures.js';
import type { ProviderBatch, Quote } from '../../domain/types.js';
import type { IngestReport, RejectReason } from '../ingestion/pipeline.js';
import { FutureRejection, isFutureQuote, resolveFuture } from './futures-mapping.js';
import type { FuturesStore } from './futures-store.js';

/** A batch split in two: the game quotes for the board, the futures quotes (with their index in the batch). */
export interface SplitBatch {
  games: ProviderBatch;
  /** Index in the original batch of each game quote. */
  gameIndex: number[];
  futures: Array<{ index: number; quote: Quote }>;
}

/** Takes the futures quotes out of a batch (they never reach the board: no event with two teams is made of them). */
export function splitFutures(batch: ProviderBatch): SplitBatch {
  const quotes: Quote[] = [];
  const gameIndex: number[] = [];
  const futures: SplitBatch['futures'] = [];
  batch.quotes.forEach((q, i) => {
    let future: boolean;
    try {
      future = q !== null && typeof q === 'object' && isFutureQuote(q);
    } catch {
      future = false; // a malformed quote: the pipeline rejects it with its reason
    }
    if (future) futures.push({ index: i, quote: q });
    else {
      quotes.push(q);
      gameIndex.push(i);
    }
  });
  return { games: futures.length ? { ...batch, quotes } : batch, gameIndex, futures };
}

/** What the futures part of a batch did. */
export interface FuturesIngestResult {
  change: FuturesChange;
  accepted: number;
  changed: number;
  unchanged: number;
  rejections: Array<{ index: number; reason: RejectReason; message: string }>;
}

/** Resolves and applies futures quotes to a store (the service and the CLI's store-only import both use it). */
export function applyFutures(store: FuturesStore, catalog: Catalog, futures: SplitBatch['futures'], now: number): FuturesIngestResult {
  const rejections: FuturesIngestResult['rejections'] = [];
  const resolved = [];
  for (const f of futures) {
    try {
      resolved.push(resolveFuture(f.quote, catalog, now));
    } catch (err) {
      if (!(err instanceof FutureRejection)) throw err;
      rejections.push({ index: f.index, reason: err.reason, message: err.message });
    }
  }
  const { change, changedFlags } = store.apply(resolved, now);
  const changed = changedFlags.filter(Boolean).length;
  return { change, accepted: resolved.length, changed, unchanged: resolved.length - changed, rejections };
}

/**
 * The board's report of the game quotes, with the futures counted in: indexes back in the original batch,
 * futures accepted, changed or rejected like any quote.
 */
export function mergeFuturesReport(report: IngestReport, split: SplitBatch, f: FuturesIngestResult | null): IngestReport {
  if (!split.futures.length) return report;
  const out: IngestReport = { ...report, rejected: { ...report.rejected } };
  out.rejections = report.rejections.map((r) => ({ ...r, index: split.gameIndex[r.index] ?? r.index }));
  if (report.ids) {
    // Row ids by the batch's own index: the board rows of the game quotes; null for futures (not board rows).
    const ids: Array<string | null> = new Array<string | null>(report.ids.length + split.futures.length).fill(null);
    report.ids.forEach((id, i) => (ids[split.gameIndex[i] ?? i] = id));
    out.ids = ids;
  }
  out.quotes += split.futures.length;
  if (f) {
    out.accepted += f.accepted;
    out.changed += f.changed;
    out.unchanged += f.unchanged;
    for (const r of f.rejections) {
      out.rejected[r.reason] = (out.rejected[r.reason] ?? 0) + 1;
      out.rejections.push(r);
    }
    out.rejections.sort((a, b) => a.index - b.index);
  }
  return out;
}
