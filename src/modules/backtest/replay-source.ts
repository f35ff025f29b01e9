import type { Catalog } from '../../config/catalog.js';
import type { ProviderBatch } from '../../domain/types.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';

/** One step of a replay: what the source reported at `now` (epoch ms). */
export interface ReplayTick {
  now: number;
  batch: ProviderBatch;
}

/**
 * A recorded (or generated) window a backtest replays: batches in time order, fed through the same ingestion
 * pipeline, board and detector as the service's own. `betUntil`: no bet is placed on a detection after it (a
 * simulated source plays on so that the games bet on can end). `truth`: the source's own probability that a
 * selection wins, when it knows one (the simulator does; a recording does not).
 */
export interface ReplaySource {
  readonly kind: 'simulated' | 'file' | 'history';
  readonly catalog: Catalog;
  readonly from: number;
  readonly to: number;
  readonly betUntil: number;
  /** Only events starting by then are bet (a simulated window's games must end within it to be graded). */
  readonly startsBy: number;
  /** Whether the window carries results (final scores); without them every bet is void (ungraded). */
  readonly hasResults: boolean;
  ticks(): Iterable<ReplayTick>;
  truth?(row: OddsRow, event: BoardEvent): number | null;
  /** A line for the report on what was replayed. */
  describe(): string;
}
