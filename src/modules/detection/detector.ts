import type { FeatureDef } from '../../common/auth/access-policy.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { DetectContext } from './group-info.js';
import type { Guards } from './guards.js';
import type { BookFilter } from './market-groups.js';

/** An item as the API and the stream show it (JSON). */
export type Json = Record<string, unknown>;

/** What every opportunity carries, whatever its type; each type's record adds its own numbers. */
export interface OpportunityRecord {
  /** The type that found it (its Detector's `kind`). */
  kind: string;
  /** Stable while the opportunity lives (a hash of what it is made of). */
  id: string;
  /** The market group (or ladder) it comes from: re-evaluated when that changes. */
  source: string;
  eventId: string;
  marketType: string;
  detectedAt: number;
  /** Last time the detector confirmed it. */
  updatedAt: number;
  guards: Guards;
}

/**
 * What a detector reads. `n_way`: every closed market group (two outcomes, or three such as home/draw/away);
 * `two_way`: only groups of two outcomes; `ladders`: every line of one market of one event and period (what a
 * middle spans). The engine re-evaluates a detector on the sources a change touched.
 */
export type Reads = 'two_way' | 'n_way' | 'ladders';

/** The stream parameters a type's items can be held to (query string and WebSocket filter). */
export type StreamThreshold = 'min_ev' | 'min_profit';

/** How a type appears on the stream (SSE and WebSocket). */
export interface StreamNames {
  /** The WebSocket channel that subscribes to it. */
  channel: string;
  /** The snapshot frames' `type`. */
  type: string;
  /** Lifecycle event names, e.g. `arb:detected` and `arb:expired`. */
  detected: string;
  expired: string;
  /** Whether an expired frame carries the time it expired (`{expired, timestamp}`) or only the ids. */
  expiredAt: boolean;
  /** A stream parameter items must reach to be sent (the item's number compared with it), if any. */
  threshold?: { param: StreamThreshold; value(item: Json): number };
}

/** What presenting needs: the caller's board view and the time ages are measured at. */
export interface PresentView {
  board: OddsBoard;
  now: number;
}

/**
 * One opportunity type, as the detection engine, the stream and the access policy see it. Each type's module
 * registers one with the engine (DetectionEngine.register, in its onModuleInit); nothing outside the type's
 * own folder names it. Methods (not function properties) so that a Detector of a narrower record type is a
 * Detector.
 */
export interface Detector<R extends OpportunityRecord = OpportunityRecord> {
  /** The type's name: the records' `kind` and the stream snapshot's `kind`. */
  readonly kind: string;
  readonly reads: Reads;
  /**
   * True: evaluated continuously in each tier's default book set (a hobby key's arbitrages are among its
   * five books). False: evaluated once over every book (+EV items are per book already).
   */
  readonly perScope: boolean;
  /** The tier feature its list and its stream events need. */
  readonly feature: FeatureDef;
  /** Further features its module's routes use (the middles summary). */
  readonly extraFeatures?: readonly FeatureDef[];
  readonly stream: StreamNames;
  /** The `/metrics` gauge of its live count (all books). */
  readonly gauge: { name: string; help: string };
  /**
   * An optional bound checked once per source before each scope is evaluated on a price change: false when
   * nothing can be found there in any scope (what all books together cannot offer, no narrower set can).
   */
  mayFind?(ctx: DetectContext, source: string): boolean;
  /** The opportunities of one source (market group or ladder) among the books in scope. */
  detect(ctx: DetectContext, source: string, inScope: BookFilter): R[];
  /** The item the stream sends (and the REST list shows, with the list's own options). */
  present(record: R, view: PresentView): Json;
  /** The prices it is made of: their books and market filter streams, and expiry refs are built from them. */
  rows(record: R): readonly OddsRow[];
  /** The numbers that, when they change, make a re-evaluated opportunity worth announcing again. */
  signature(record: R): unknown;
}
