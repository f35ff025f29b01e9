import type { OddsRow } from '../../domain/odds-row.js';
import type { OpportunityRecord } from '../detection/detector.js';

/** A market whose best prices among the books in scope hold at most LOW_HOLD_MAX percent. */
export interface LowHoldRecord extends OpportunityRecord {
  kind: 'low_hold';
  /** One side per outcome: the best price and every book offering it. */
  sides: Array<{ row: OddsRow; books: string[]; fairProbability: number }>;
  line: number | null;
  holdPercent: number;
  allBooks: string[];
  isAlternateLine: boolean;
}
