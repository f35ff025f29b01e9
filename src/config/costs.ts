import type { VenueCost } from '../math/costs.js';
import type { BookDef } from './catalog.js';
import { readJson } from './paths.js';

interface CostFile {
  by_settlement: Record<BookDef['settlement'], { commission: number; fee_rate: number }>;
  books: Record<string, { commission: number; fee_rate: number }>;
}

/** The venue costs of config/costs.json: a book's own numbers, else those of its settlement type. */
export class VenueCosts {
  private readonly file: CostFile;

  constructor(file?: CostFile) {
    this.file = file ?? readJson<CostFile>('config', 'costs.json');
    for (const [name, c] of [...Object.entries(this.file.by_settlement), ...Object.entries(this.file.books)]) {
      for (const v of [c.commission, c.fee_rate]) {
        if (typeof v !== 'number' || !(v >= 0 && v < 1))
          throw new Error(`config/costs.json: ${name} needs commission and fee_rate from 0 to below 1`);
      }
    }
  }

  of(book: string, settlement: BookDef['settlement'] | undefined): VenueCost {
    const c = this.file.books[book] ?? this.file.by_settlement[settlement ?? 'sportsbook'] ?? { commission: 0, fee_rate: 0 };
    return { commission: c.commission, feeRate: c.fee_rate };
  }
}

let shared: VenueCosts | null = null;
/** The costs file, read once. */
export function venueCosts(): VenueCosts {
  shared ??= new VenueCosts();
  return shared;
}
