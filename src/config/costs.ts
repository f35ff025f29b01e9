import type { VenueCost } from '../math/costs.js';
import type { BookDef } from './catalog.js';
import { readJson } from './paths.js';

/** One entry of config/costs.json: null numbers mean the venue's cost is not known. */
export interface CostEntry {
  commission: number | null;
  fee_rate: number | null;
  source: string;
  as_of: string;
}

export interface CostFile {
  by_settlement: Partial<Record<BookDef['settlement'], CostEntry>>;
  books: Record<string, CostEntry>;
}

const SETTLEMENTS: readonly BookDef['settlement'][] = ['sportsbook', 'exchange', 'prediction'];

function parseEntry(name: string, raw: unknown): VenueCost | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`config/costs.json: ${name} must be an object`);
  const e = raw as Partial<CostEntry>;
  if (typeof e.source !== 'string' || !e.source.trim()) throw new Error(`config/costs.json: ${name} needs a source`);
  if (typeof e.as_of !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(e.as_of) || Number.isNaN(Date.parse(e.as_of)))
    throw new Error(`config/costs.json: ${name} needs as_of, the date its numbers were taken (YYYY-MM-DD)`);
  if (e.commission === null && e.fee_rate === null) return null;
  for (const v of [e.commission, e.fee_rate]) {
    if (typeof v !== 'number' || !(v >= 0 && v < 1))
      throw new Error(`config/costs.json: ${name} needs commission and fee_rate from 0 to below 1, or both null (unknown)`);
  }
  return { commission: e.commission as number, feeRate: e.fee_rate as number };
}

/**
 * The venue costs of config/costs.json: a book's own entry, else that of its catalog settlement type. `null` is an
 * unknown cost: a book whose entry is null, or that the catalog does not know (no settlement type).
 */
export class VenueCosts {
  private readonly books = new Map<string, VenueCost | null>();
  private readonly settlements = new Map<BookDef['settlement'], VenueCost | null>();

  constructor(file?: CostFile) {
    const f: unknown = file ?? readJson<CostFile>('config', 'costs.json');
    if (typeof f !== 'object' || f === null) throw new Error('config/costs.json must be an object');
    const { by_settlement: bySettlement, books } = f as Partial<CostFile>;
    if (typeof bySettlement !== 'object' || bySettlement === null) throw new Error('config/costs.json needs by_settlement');
    if (typeof books !== 'object' || books === null) throw new Error('config/costs.json needs books');
    for (const [name, raw] of Object.entries(bySettlement)) {
      if (!SETTLEMENTS.includes(name as BookDef['settlement']))
        throw new Error(`config/costs.json: by_settlement.${name} is not a settlement type (${SETTLEMENTS.join(', ')})`);
      this.settlements.set(name as BookDef['settlement'], parseEntry(`by_settlement.${name}`, raw));
    }
    for (const [name, raw] of Object.entries(books)) this.books.set(name, parseEntry(`books.${name}`, raw));
  }

  /** The book's cost; null when it is not known. `settlement` is the catalog's (undefined: a book the catalog does not know). */
  of(book: string, settlement: BookDef['settlement'] | undefined): VenueCost | null {
    if (this.books.has(book)) return this.books.get(book) ?? null;
    if (settlement === undefined) return null;
    return this.settlements.get(settlement) ?? null;
  }

  /**
   * The cost of a book as a feed names it, read through the catalog (its id and settlement type); null when unknown.
   * A book registered on first sight has no known settlement type: only its own entry in config/costs.json gives it a cost.
   */
  ofBook(name: string, catalog: { book(id: string): BookDef | undefined }): VenueCost | null {
    const def = catalog.book(name);
    // A book of class `unknown` (registered on first sight, not described by an operator) is unverified: its
    // settlement type is a guess, so its cost is unknown unless it has an entry of its own (Catalog.isVerified).
    return this.of(def?.id ?? name, def && def.class !== 'unknown' ? def.settlement : undefined);
  }
}

let shared: VenueCosts | null = null;
/** The costs file, read once. */
export function venueCosts(): VenueCosts {
  shared ??= new VenueCosts();
  return shared;
}
