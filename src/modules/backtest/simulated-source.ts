import { Catalog } from '../../config/catalog.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import type { ProviderBatch, QuoteKey } from '../../domain/types.js';
import { MarketSimulator } from '../ingestion/simulator/simulator.js';
import type { ReplaySource, ReplayTick } from './replay-source.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** After the last day the world plays on this long without betting, so that the games bet on end and are graded. */
const SETTLE_MS = 8 * HOUR;

export interface SimulatedOptions {
  days: number;
  seed: number;
  /** Simulated time between two polls of the simulator (ms): the replay's resolution (default 10 s). */
  stepMs?: number;
  /** Events on the simulated board (default 120). */
  events?: number;
  /** Simulated start (epoch ms; default: 1 January 2026, 00:00 UTC, so one seed gives one world). */
  start?: number;
}

/**
 * The batch without what a backtest never bets (player props, quarter-line Asian handicaps): the simulator still
 * prices them, but the replay need not ingest them (most of the simulated board's rows are props).
 */
function gradableOnly(batch: ProviderBatch): ProviderBatch {
  const keep = (q: QuoteKey): boolean => !q.playerName && q.marketType !== 'asian_handicap';
  const out: ProviderBatch = { ...batch, quotes: batch.quotes.filter(keep) };
  if (batch.removals) out.removals = batch.removals.filter(keep);
  return out;
}

export const SIMULATED_START = Date.UTC(2026, 0, 1);

/**
 * N simulated days at an accelerated clock: the service's own market simulator, polled every `stepMs` of
 * simulated time as fast as the machine goes. It knows every selection's true probability.
 */
export class SimulatedSource implements ReplaySource {
  readonly kind = 'simulated';
  readonly catalog = new Catalog();
  readonly from: number;
  readonly to: number;
  readonly betUntil: number;
  readonly startsBy: number;
  readonly hasResults = true;
  private readonly sim: MarketSimulator;
  private readonly stepMs: number;

  constructor(private readonly opts: SimulatedOptions) {
    this.from = opts.start ?? SIMULATED_START;
    this.betUntil = this.from + opts.days * DAY;
    this.to = this.betUntil + SETTLE_MS;
    this.startsBy = this.betUntil;
    this.stepMs = opts.stepMs ?? 10_000;
    this.sim = new MarketSimulator(this.catalog, {
      seed: opts.seed,
      events: opts.events ?? 120,
      days: Math.min(7, Math.max(1, Math.ceil(opts.days))),
      tickMs: this.stepMs,
      start: this.from,
      lean: true,
    });
  }

  *ticks(): Iterable<ReplayTick> {
    yield { now: this.from, batch: gradableOnly(this.sim.start(this.from)) };
    for (let t = this.from + this.stepMs; t <= this.to; t += this.stepMs) yield { now: t, batch: gradableOnly(this.sim.poll(t)) };
  }

  truth(row: OddsRow, event: BoardEvent): number | null {
    if (row.period !== 'game') return null;
    return this.sim.trueProbability({
      league: event.league,
      homeTeam: event.homeTeam,
      awayTeam: event.awayTeam,
      startTime: event.startTime,
      marketType: row.marketType,
      selectionType: row.selectionType,
      line: row.line,
      playerName: row.playerName,
    });
  }

  describe(): string {
    return `${this.opts.days} simulated day(s), seed ${this.opts.seed}, polled every ${this.stepMs / 1000} s`;
  }
}
