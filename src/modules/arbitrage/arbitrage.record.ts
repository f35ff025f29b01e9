import type { OddsRow } from '../../domain/odds-row.js';
import type { OpportunityRecord } from '../detection/detector.js';

/** The best price of every outcome of a market, among the books in scope, summing below 100%. */
export interface ArbitrageRecord extends OpportunityRecord {
  kind: 'arbitrage';
  legs: Array<{ row: OddsRow; impliedProbability: number; stakePercent: number }>;
  line: number | null;
  impliedTotal: number;
  profitPercent: number;
  isAlternateLine: boolean;
}
