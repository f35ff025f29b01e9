/**
 * From fair probabilities to a book's displayed prices: the margin, then the book's format and
 * rounding (American to the cent or to 5 cents, decimal ladders, prediction-market cents).
 */

import type { PriceInput } from '../../../domain/types.js';
import { americanToDecimal, decimalToAmerican, roundAmerican, roundTo } from '../../../math/index.js';
import type { PriceFormat } from './books.js';

/**
 * Implied probabilities with overround m: q_i = p_i (1 + m/2) + m/(2n): half the margin
 * proportional to the probability, half spread evenly (long shots carry a little more).
 */
export function applyMargin(p: readonly number[], m: number): number[] {
  const n = p.length;
  return p.map((x) => x * (1 + m / 2) + m / (2 * n));
}

function step(x: number, s: number): number {
  return Math.round(x / s) * s;
}

function usStep(abs: number): number {
  if (abs < 300) return 5;
  if (abs < 1000) return 10;
  if (abs < 2000) return 50;
  return 100;
}

/** The book's native price value for an implied probability q (0 < q < 1). */
export function formatPrice(q: number, format: PriceFormat): number {
  const qq = Math.min(0.995, Math.max(0.004, q));
  const d = 1 / qq;
  switch (format) {
    case 'american1':
      return roundAmerican(decimalToAmerican(d));
    case 'american5': {
      const a = decimalToAmerican(d);
      const r = a > 0 ? step(a, usStep(a)) : -step(-a, usStep(-a));
      return r > -100 && r <= 100 ? 100 : r;
    }
    case 'decimal2': {
      const v = d < 3 ? roundTo(d, 2) : d < 5 ? step(d, 0.05) : d < 10 ? step(d, 0.1) : d < 20 ? step(d, 0.5) : step(d, 1);
      return roundTo(Math.max(1.01, v), 2);
    }
    case 'exchange2':
      return Math.max(1.01, roundTo(d, 2));
    case 'exchange3':
      return Math.max(1.001, roundTo(d, 3));
    case 'ladder': {
      const t = d < 2 ? 0.01 : d < 3 ? 0.02 : d < 4 ? 0.05 : d < 6 ? 0.1 : d < 10 ? 0.2 : d < 20 ? 0.5 : d < 30 ? 1 : d < 50 ? 2 : 5;
      return roundTo(Math.max(1.01, step(d, t)), 2);
    }
    case 'contract':
      return Math.min(99, Math.max(1, Math.round(qq * 100)));
  }
}

/** PriceInput of a native price value. */
export function priceInput(pv: number, format: PriceFormat): PriceInput {
  switch (format) {
    case 'american1':
    case 'american5':
      return { american: pv };
    case 'contract':
      return { contract_price: pv / 100 };
    default:
      return { decimal: pv };
  }
}

/** Decimal odds of a native price value. */
export function toDecimal(pv: number, format: PriceFormat): number {
  switch (format) {
    case 'american1':
    case 'american5':
      return americanToDecimal(pv);
    case 'contract':
      return 100 / pv;
    default:
      return pv;
  }
}

/** American odds of a native price value (rounded to an integer). */
export function toAmerican(pv: number, format: PriceFormat): number {
  if (format === 'american1' || format === 'american5') return pv;
  return roundAmerican(decimalToAmerican(toDecimal(pv, format)));
}
