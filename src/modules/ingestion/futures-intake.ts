import type { Catalog } from '../../config/catalog.js';
import type { FuturesChange, ResolvedFuture } from '../../domain/futures.js';
import type { ProviderBatch, Quote } from '../../domain/types.js';
import type { IngestReport, RejectReason } from './pipeline.js';
import { FutureRejection, isFutureQuote, resolveFuture } from './futures-mapping.js';
import type { FuturesStore } from '../stores/futures/futures-store.js';

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
  /** Prices withdrawn by the batch's `removeIds`. */
  removed: number;
  rejections: Array<{ index: number; reason: RejectReason; message: string }>;
  /** The price id of each accepted futures quote, by its index in the batch. */
  ids: Map<number, string>;
  /** Each accepted futures quote with what it resolved to. */
  resolved: Array<{ quote: Quote; future: ResolvedFuture }>;
}

/** The batch's context for its futures: its source, whether it is history, the ids it withdraws. */
export interface FuturesBatchContext {
  source?: string;
  history?: boolean;
  removeIds?: readonly string[];
}

/** Resolves futures quotes and applies them to a futures store (the ingestion service's and the CLI's store-only import's). */
export function applyFutures(
  store: FuturesStore,
  catalog: Catalog,
  futures: SplitBatch['futures'],
  now: number,
  ctx: FuturesBatchContext = {},
): FuturesIngestResult {
  const rejections: FuturesIngestResult['rejections'] = [];
  const resolved = [];
  const taken: FuturesIngestResult['resolved'] = [];
  const ids = new Map<number, string>();
  for (const f of futures) {
    try {
      const r = resolveFuture(f.quote, catalog, now, { source: ctx.source, history: ctx.history });
      resolved.push(r);
      taken.push({ quote: f.quote, future: r });
      ids.set(f.index, r.price.id);
    } catch (err) {
      // Anything else thrown is a field of the wrong type (a number where text belongs): that row is malformed.
      const r =
        err instanceof FutureRejection
          ? err
          : new FutureRejection('malformed_quote', 'the quote is malformed (a field has the wrong type)');
      rejections.push({ index: f.index, reason: r.reason, message: r.message });
    }
  }
  const { change, changedFlags } = store.apply(resolved, now);
  let removed = 0;
  if (ctx.removeIds?.length) {
    const gone = store.remove(ctx.removeIds, ctx.source ?? '', now);
    removed = gone.removedPrices?.length ?? 0;
    change.removedPrices = gone.removedPrices;
    change.removedMarkets = gone.removedMarkets;
  }
  const changed = changedFlags.filter(Boolean).length;
  return { change, accepted: resolved.length, changed, unchanged: resolved.length - changed, removed, rejections, ids, resolved: taken };
}

/**
 * The board's report of the game quotes, with the futures counted in: indexes back in the original batch,
 * futures accepted, changed, rejected or removed like any quote; `ids` gives a futures quote its price id.
 */
export function mergeFuturesReport(report: IngestReport, split: SplitBatch, f: FuturesIngestResult | null): IngestReport {
  if (!split.futures.length && !f?.removed) return report;
  const out: IngestReport = { ...report, rejected: { ...report.rejected } };
  out.rejections = report.rejections.map((r) => ({ ...r, index: split.gameIndex[r.index] ?? r.index }));
  if (report.ids) {
    // Ids by the batch's own index: the board rows of the game quotes, the price ids of the futures (null when rejected).
    const ids: Array<string | null> = new Array<string | null>(report.ids.length + split.futures.length).fill(null);
    report.ids.forEach((id, i) => (ids[split.gameIndex[i] ?? i] = id));
    for (const [i, id] of f?.ids ?? []) ids[i] = id;
    out.ids = ids;
  }
  out.quotes += split.futures.length;
  if (f) {
    out.accepted += f.accepted;
    out.changed += f.changed;
    out.unchanged += f.unchanged;
    out.removed += f.removed;
    for (const r of f.rejections) {
      out.rejected[r.reason] = (out.rejected[r.reason] ?? 0) + 1;
      out.rejections.push(r);
    }
    out.rejections.sort((a, b) => a.index - b.index);
  }
  return out;
}
