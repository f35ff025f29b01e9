import type { OddsRow } from '../../domain/odds-row.js';
import type { DevigMethod } from '../../math/index.js';
import type { OpportunityRecord } from '../detection/detector.js';

/** One book's price above the devigged sharp line. */
export interface EvRecord extends OpportunityRecord {
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
