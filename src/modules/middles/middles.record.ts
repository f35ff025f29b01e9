import type { OddsRow } from '../../domain/odds-row.js';
import type { MiddleAnalysis } from '../../math/index.js';
import type { OpportunityRecord } from '../detection/detector.js';

export interface MiddleSideRecord {
  row: OddsRow;
  kind: 'above' | 'below';
  threshold: number;
  /** Model probability that this side wins. */
  winProbability: number;
}

/** Two books' main lines on one ladder leaving a window where both bets win. */
export interface MiddleRecord extends OpportunityRecord {
  kind: 'middles';
  side1: MiddleSideRecord;
  side2: MiddleSideRecord;
  analysis: MiddleAnalysis;
  /** The pair priced on its sides' net decimals (after the venues' costs); null when a side's venue cost is unknown. */
  netAnalysis: MiddleAnalysis | null;
  qualityScore: number;
  sport: string;
}
