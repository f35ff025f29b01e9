import { describe, expect, it } from '@jest/globals';
import { VenueCosts, type CostFile } from './costs.js';

const entry = (commission: number | null, fee_rate: number | null) => ({ commission, fee_rate, source: 'test', as_of: '2026-11-25' });

function file(over: Partial<CostFile> = {}): CostFile {
  return {
    by_settlement: { sportsbook: entry(0, 0), exchange: entry(null, null), prediction: entry(null, null) },
    books: { kalshi: entry(0, 0.07), betfair: entry(null, null), someexchange: entry(0.03, 0) },
    ...over,
  };
}

describe('VenueCosts', () => {
  it("a book's own entry, else its settlement type's", () => {
    const c = new VenueCosts(file());
    expect(c.of('kalshi', 'prediction')).toEqual({ commission: 0, feeRate: 0.07 });
    expect(c.of('someexchange', 'exchange')).toEqual({ commission: 0.03, feeRate: 0 });
    expect(c.of('draftkings', 'sportsbook')).toEqual({ commission: 0, feeRate: 0 });
  });

  it('an unknown cost is null, never a default rate', () => {
    const c = new VenueCosts(file());
    expect(c.of('betfair', 'exchange')).toBeNull(); // its own entry says unknown
    expect(c.of('novig', 'exchange')).toBeNull(); // no entry, and the exchange type is unknown
    expect(c.of('polymarket', 'prediction')).toBeNull();
    expect(c.of('pickem_operator', undefined)).toBeNull(); // a book the catalog does not know
  });

  it('book names that are Object.prototype members are plain names', () => {
    const c = new VenueCosts(file());
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(c.of(name, undefined)).toBeNull();
      expect(c.of(name, 'sportsbook')).toEqual({ commission: 0, feeRate: 0 });
    }
  });

  it('the shipped config/costs.json loads and names a source and date for every entry', () => {
    const c = new VenueCosts();
    expect(c.of('kalshi', 'prediction')).toEqual({ commission: 0, feeRate: 0.07 });
    expect(c.of('fanduel', 'sportsbook')).toEqual({ commission: 0, feeRate: 0 });
    expect(c.of('polymarket', 'prediction')).toBeNull();
    expect(c.of('betfair', 'exchange')).toEqual({ commission: 0.05, feeRate: 0 });
    expect(c.of('prophetx', 'exchange')).toBeNull();
  });

  it('refuses a bad file with a clear message', () => {
    expect(() => new VenueCosts(file({ books: { x: entry(1, 0) } }))).toThrow(/books.x needs commission and fee_rate from 0 to below 1/);
    expect(() => new VenueCosts(file({ books: { x: entry(0.05, null) } }))).toThrow(/or both null/);
    expect(() => new VenueCosts(file({ books: { x: { commission: 0, fee_rate: 0, source: '', as_of: '2026-11-25' } } }))).toThrow(
      /books.x needs a source/,
    );
    expect(() => new VenueCosts(file({ books: { x: { commission: 0, fee_rate: 0, source: 's', as_of: 'soon' } } }))).toThrow(/as_of/);
    expect(() => new VenueCosts({ ...file(), by_settlement: { casino: entry(0, 0) } } as unknown as CostFile)).toThrow(
      /casino is not a settlement type/,
    );
  });
});
