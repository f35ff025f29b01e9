/**
 * The simulated world's shared state: the events on the board with each book's view of them, the timeline of
 * pending actions, the one random generator every part draws from (in timeline order, so the same seed gives the
 * same market), and the changes waiting for the next poll. The parts of the simulator (listing, fair values, game
 * engine, book pricing, splits feed, emitter) read and write it; none of them keeps a timeline or generator of its own.
 */

import type { PlayerDef } from '../../../config/catalog.js';
import type { ProviderBatch, SplitsInput } from '../../../domain/types.js';
import type { BookProfile } from './books.js';
import type { Fixture } from './fixtures.js';
import type { Game } from './game.js';
import { TimeHeap } from './heap.js';
import type { Fair } from './model.js';
import { Rng } from './rng.js';
import type { SplitsState } from './splits.js';
import type { LeagueConfig, SportConfig } from './sports.js';

export const SEC = 1000;
export const MIN = 60 * SEC;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const SPLITS_EVERY = 60 * SEC;

export interface PropSlot {
  player: PlayerDef;
  side: 'home' | 'away';
  stat: string;
  market: string;
  base: number;
  mean: number;
  sd: number;
  poisson: boolean;
  out: boolean;
}

/** One selection a book quotes on an event, with what was last emitted for it. */
export interface Row {
  be: BookEvent;
  comp: 0 | 1;
  lk: string;
  marketType: string;
  selection: string;
  selType: string;
  line: number | null;
  player: string | null;
  /** A prop's player's team (the event's home or away team). */
  team: string | null;
  stat: string | null;
  pv: number;
  active: boolean;
  live: boolean;
  emitted: boolean;
  epv: number;
  eactive: boolean;
  elive: boolean;
  dead: boolean;
  mark: number;
  /** Book-native ids, built on first output. */
  marketId: string | null;
  selectionId: string | null;
  /** Price moves so far (exchange and prediction-market volume grows with them). */
  moves: number;
}

/** One book's view of one event: its lines, biases, suspension state and rows. */
export interface BookEvent {
  p: BookProfile;
  ev: SimEvent;
  ext: string;
  rows: Map<string, Row>;
  /** Main spread threshold on the margin scale (home line = -spreadX), main total. */
  spreadX: number | null;
  totalX: number | null;
  propLines: Array<number | null>;
  appliedSeq: number;
  appliedLinesV: number;
  appliedPropsV: number;
  biasS: number;
  biasT: number;
  biasMl: number;
  propBias: number[];
  biasAt: number;
  suspended: boolean;
  token: number;
  spread: boolean;
  total: boolean;
  asian: boolean;
  propSlots: boolean[];
  rungs: number;
  spreadStep: number;
  totalStep: number;
  gone: boolean;
  epoch: number;
  splits: SplitsState | null;
}

export interface SimEvent {
  id: number;
  fx: Fixture;
  league: LeagueConfig;
  sc: SportConfig;
  home: string;
  away: string;
  startTime: number;
  status: 'upcoming' | 'live' | 'ended';
  /** Latent expected home margin (tennis: per-game logit; MMA: fight logit) and total. */
  mu: number;
  total: number;
  anchorMu: number;
  anchorT: number;
  lastStep: number;
  props: PropSlot[];
  fair: Fair;
  stale: boolean;
  seq: number;
  linesV: number;
  propsV: number;
  openPHome: number;
  openMu: number;
  openT: number;
  game: Game | null;
  books: BookEvent[];
  removed: boolean;
  /** Retail books keep the markets suspended (the end of a basketball or football game). */
  locked: boolean;
}

/** Whether a book sits out an event's end-of-game lock (retail books do; sharp books and exchanges trade on). */
export function lockedOut(be: BookEvent): boolean {
  return be.ev.locked && be.p.kind !== 'sharp' && be.p.kind !== 'exchange';
}

export type Action =
  | { k: 'list'; fx: Fixture }
  | { k: 'step'; ev: SimEvent }
  | { k: 'pstep'; ev: SimEvent }
  | { k: 'kick'; ev: SimEvent }
  | { k: 'seg'; ev: SimEvent; token: number }
  | { k: 'play'; ev: SimEvent; token: number }
  | { k: 'tick'; ev: SimEvent }
  | { k: 'tgame'; ev: SimEvent }
  | { k: 'reprice'; be: BookEvent; fair: Fair }
  | { k: 'suspend'; be: BookEvent; token: number }
  | { k: 'reopen'; be: BookEvent; token: number }
  | { k: 'leave'; be: BookEvent }
  | { k: 'splits'; ev: SimEvent }
  | { k: 'cal' };

export type EventRemoval = NonNullable<ProviderBatch['eventRemovals']>[number];

export class SimWorld {
  readonly rng: Rng;
  readonly heap = new TimeHeap<Action>();
  readonly events = new Map<number, SimEvent>();
  /** Rows changed since the last poll. */
  readonly dirty = new Set<Row>();
  /** Events whose status or game state changed since the last poll. */
  readonly dirtyEvents = new Set<SimEvent>();
  pendingEventRemovals: EventRemoval[] = [];
  pendingSplits: SplitsInput[] = [];
  /** Simulated time of the action being handled (or of the last poll). */
  now: number;
  /** Before the start: the world is simulated without books pricing or reporting. */
  warm = true;
  /** Main lines only: no alternate rungs, Asian handicaps or props (a backtest's lighter world; the service's is full). */
  lean = false;

  constructor(
    readonly seed: number,
    /** Multiplier on the pregame rate of fair-value moves. */
    readonly activity: number,
    readonly profiles: BookProfile[],
    now: number,
  ) {
    this.rng = Rng.derive(seed, 'market');
    this.now = now;
  }
}
