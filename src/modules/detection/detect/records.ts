import type { DevigMethod, MiddleAnalysis } from '../../../math/index.js';
import type { OddsRow } from '../../../domain/odds-row.js';
import type { ConsensusGap, MarketCheck } from './guards.js';

export type OpportunityKind = 'ev' | 'arbitrage' | 'middles' | 'low_hold';

interface Base {
  id: string;
  /** The market group (or ladder, for middles) the opportunity comes from: re-evaluated when it changes. */
  source: string;
  eventId: string;
  marketType: string;
  detectedAt: number;
  /** Last time the detector confirmed it. */
  updatedAt: number;
  /** What the plausibility guards (guards.ts) found on the prices it uses. */
  guards: Guards;
}

export interface Guards {
  /** Venue markets it uses that are flagged: only when flagged markets were let in (`include_flagged`). */
  flagged: MarketCheck[];
  /** Prices it uses that are far from the other books' consensus on the same outcome. */
  offConsensus: ConsensusGap[];
}

export interface ArbitrageRecord extends Base {
  kind: 'arbitrage';
  legs: Array<{ row: OddsRow; impliedProbability: number; stakePercent: number }>;
  line: number | null;
  impliedTotal: number;
  profitPercent: number;
  isAlternateLine: boolean;
}

export interface LowHoldRecord extends Base {
  kind: 'low_hold';
  /** One side per outcome: the best price and every book offering it. */
  sides: Array<{ row: OddsRow; books: string[]; fairProbability: number }>;
  line: number | null;
  holdPercent: number;
  allBooks: string[];
  isAlternateLine: boolean;
}

export interface EvRecord extends Base {
  kind: 'ev';
  row: OddsRow;
  line: number | null;
  sharpBook: string;
  sharpRows: OddsRow[];
  /** Fair probability of this outcome by every devig method. */
  fair: Record<DevigMethod, number>;
  /** Books quoting this selection (active, in the group). */
  bookCount: number;
  sharpRefCount: number;
  sharpHoldPercent: number;
  marketWidth: number | null;
  isMainLine: boolean;
}

export interface MiddleSideRecord {
  row: OddsRow;
  kind: 'above' | 'below';
  threshold: number;
  /** Model probability that this side wins. */
  winProbability: number;
}

export interface MiddleRecord extends Base {
  kind: 'middles';
  side1: MiddleSideRecord;
  side2: MiddleSideRecord;
  analysis: MiddleAnalysis;
  qualityScore: number;
  sport: string;
}

export type OpportunityRecord = ArbitrageRecord | LowHoldRecord | EvRecord | MiddleRecord;
