import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  americanToDecimal,
  americanToProbability,
  contractPriceToAmerican,
  contractPriceToDecimal,
  decimalToAmerican,
  decimalToProbability,
  normalizePrice,
  probabilityToAmerican,
  probabilityToDecimal,
  roundAmerican,
  roundTo,
} from './odds.js';

describe('americanToDecimal', () => {
  it('converts hand-computed values', () => {
    // +150: 1 + 150/100 = 2.5
    expect(americanToDecimal(150)).toBe(2.5);
    // -200: 1 + 100/200 = 1.5
    expect(americanToDecimal(-200)).toBe(1.5);
    // -110: 1 + 100/110 = 21/11 = 1.909090...
    expect(americanToDecimal(-110)).toBeCloseTo(21 / 11, 14);
    // +100 and -100 are both even money: 2.0
    expect(americanToDecimal(100)).toBe(2);
    expect(americanToDecimal(-100)).toBe(2);
    // +2500: 1 + 25 = 26
    expect(americanToDecimal(2500)).toBe(26);
  });

  it('rejects |a| < 100 and non-finite input', () => {
    for (const bad of [0, 99, -99, 50, -99.99, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => americanToDecimal(bad)).toThrow(RangeError);
    }
  });
});

describe('decimalToAmerican', () => {
  it('converts hand-computed values', () => {
    // 2.5 >= 2: (2.5 - 1) * 100 = 150
    expect(decimalToAmerican(2.5)).toBeCloseTo(150, 12);
    // 1.5 < 2: -100 / 0.5 = -200
    expect(decimalToAmerican(1.5)).toBe(-200);
    // 2.0: (2 - 1) * 100 = +100
    expect(decimalToAmerican(2)).toBe(100);
    // 21/11: -100 / (10/11) = -110
    expect(decimalToAmerican(21 / 11)).toBeCloseTo(-110, 10);
    // 1.9259: -100 / 0.9259 = -108.0030...
    expect(decimalToAmerican(1.9259)).toBeCloseTo(-108.00302408467437, 9);
  });

  it('rejects d <= 1 and non-finite input', () => {
    for (const bad of [1, 0.5, 0, -2, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => decimalToAmerican(bad)).toThrow(RangeError);
    }
  });
});

describe('roundAmerican', () => {
  it('rounds half away from zero', () => {
    expect(roundAmerican(-110.4)).toBe(-110);
    expect(roundAmerican(-110.5)).toBe(-111);
    expect(roundAmerican(110.5)).toBe(111);
    expect(roundAmerican(110.49)).toBe(110);
    expect(roundAmerican(-108.003)).toBe(-108);
  });

  it('maps even money and the (-100, 100) gap to +100', () => {
    expect(roundAmerican(100)).toBe(100);
    expect(roundAmerican(-100)).toBe(100);
    expect(roundAmerican(-100.3)).toBe(100); // |a| rounds to 100
    expect(roundAmerican(100.49)).toBe(100);
    expect(roundAmerican(100.5)).toBe(101);
    expect(roundAmerican(-100.5)).toBe(-101);
    expect(roundAmerican(99.7)).toBe(100);
    expect(roundAmerican(-42)).toBe(100);
    expect(roundAmerican(0)).toBe(100);
    // decimal 2.0 => +100
    expect(roundAmerican(decimalToAmerican(2))).toBe(100);
    // decimal 1.9999999 => -100.00001 => +100
    expect(roundAmerican(decimalToAmerican(1.9999999))).toBe(100);
  });

  it('rejects non-finite input', () => {
    expect(() => roundAmerican(Number.NaN)).toThrow(RangeError);
    expect(() => roundAmerican(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
  });

  it('property: integer output, never inside (-100, 100), within 0.5 of |a| >= 100.5', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (a) => {
        const r = roundAmerican(a);
        expect(Number.isInteger(r)).toBe(true);
        expect(Math.abs(r)).toBeGreaterThanOrEqual(100);
        expect(r).not.toBe(-100);
        if (Math.abs(a) >= 100.5) expect(Math.abs(r - a)).toBeLessThanOrEqual(0.5);
        else expect(r).toBe(100);
      }),
    );
  });
});

describe('probability conversions', () => {
  it('converts hand-computed values', () => {
    // 1/4 = 0.25
    expect(decimalToProbability(4)).toBe(0.25);
    // 1/0.25 = 4
    expect(probabilityToDecimal(0.25)).toBe(4);
    // -150: 150/(150+100) = 0.6
    expect(americanToProbability(-150)).toBeCloseTo(0.6, 15);
    // +150: 100/(150+100) = 0.4
    expect(americanToProbability(150)).toBeCloseTo(0.4, 15);
    // -110: 110/210 = 0.523809...
    expect(americanToProbability(-110)).toBeCloseTo(11 / 21, 15);
    // 0.6 > 0.5: -100*0.6/0.4 = -150
    expect(probabilityToAmerican(0.6)).toBeCloseTo(-150, 10);
    // 0.4: 100*0.6/0.4 = +150
    expect(probabilityToAmerican(0.4)).toBeCloseTo(150, 10);
    // 0.5: +100
    expect(probabilityToAmerican(0.5)).toBe(100);
  });

  it('rejects probabilities outside (0, 1) and decimals <= 1', () => {
    for (const bad of [0, 1, -0.1, 1.2, Number.NaN]) {
      expect(() => probabilityToDecimal(bad)).toThrow(RangeError);
      expect(() => probabilityToAmerican(bad)).toThrow(RangeError);
    }
    expect(() => decimalToProbability(1)).toThrow(RangeError);
    expect(() => americanToProbability(-50)).toThrow(RangeError);
  });

  it('property: probability <-> decimal are inverse', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1 - 1e-6, noNaN: true }), (p) => {
        const back = decimalToProbability(probabilityToDecimal(p));
        expect(Math.abs(back - p)).toBeLessThanOrEqual(1e-15 * p + 1e-17);
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1.0001, max: 1e5, noNaN: true }), (d) => {
        const back = probabilityToDecimal(decimalToProbability(d));
        expect(Math.abs(back - d)).toBeLessThanOrEqual(1e-14 * d);
      }),
    );
  });

  it('property: American probability formulas agree with the decimal route', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 100, max: 1e5, noNaN: true }), fc.double({ min: -1e5, max: -100, noNaN: true })), (a) => {
        expect(americanToProbability(a)).toBeCloseTo(1 / americanToDecimal(a), 12);
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 1 - 1e-4, noNaN: true }), (p) => {
        const viaDecimal = decimalToAmerican(1 / p);
        expect(Math.abs(probabilityToAmerican(p) - viaDecimal)).toBeLessThanOrEqual(1e-9 * Math.abs(viaDecimal));
      }),
    );
  });
});

describe('American <-> decimal round trip', () => {
  it('property: integers |a| >= 100 survive American -> decimal -> American (-100 becomes +100)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 100, max: 1_000_000 }), fc.integer({ min: -1_000_000, max: -100 })), (a) => {
        const unrounded = decimalToAmerican(americanToDecimal(a));
        const expected = a === -100 ? 100 : a;
        expect(Math.abs(unrounded - expected)).toBeLessThanOrEqual(1e-9 * Math.abs(expected));
        expect(roundAmerican(unrounded)).toBe(expected);
      }),
    );
  });
});

describe('contract prices', () => {
  it('converts hand-computed values', () => {
    // 1/0.42 = 2.380952...
    expect(contractPriceToDecimal(0.42)).toBeCloseTo(2.380952380952381, 14);
    // d >= 2: (1/0.42 - 1)*100 = 100*0.58/0.42 = 138.0952...
    expect(contractPriceToAmerican(0.42)).toBeCloseTo(138.0952380952381, 10);
    // d = 1/0.65 < 2: -100/(1/0.65 - 1) = -100*0.65/0.35 = -185.714...
    expect(contractPriceToAmerican(0.65)).toBeCloseTo(-185.71428571428572, 10);
    // 0.5 => 2.0 => +100
    expect(contractPriceToAmerican(0.5)).toBe(100);
  });

  it('rejects prices outside (0, 1)', () => {
    for (const bad of [0, 1, 1.5, -0.2, Number.NaN]) {
      expect(() => contractPriceToDecimal(bad)).toThrow(RangeError);
      expect(() => contractPriceToAmerican(bad)).toThrow(RangeError);
    }
  });
});

describe('roundTo', () => {
  it('rounds half away from zero, handling binary representation of decimal halves', () => {
    expect(roundTo(1.005, 2)).toBe(1.01); // 1.005 is stored as 1.00499999999999989...
    expect(roundTo(1.0049, 2)).toBe(1);
    expect(roundTo(2.345, 2)).toBe(2.35);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(1.23456789, 4)).toBe(1.2346);
    expect(roundTo(0.1 + 0.2, 10)).toBe(0.3);
    expect(roundTo(1.90909090909, 4)).toBe(1.9091);
    expect(Object.is(roundTo(-0.0001, 2), 0)).toBe(true); // never -0
  });

  it('rejects bad arguments', () => {
    expect(() => roundTo(Number.NaN, 2)).toThrow(RangeError);
    expect(() => roundTo(1, -1)).toThrow(RangeError);
    expect(() => roundTo(1, 1.5)).toThrow(RangeError);
    expect(() => roundTo(1, 16)).toThrow(RangeError);
  });

  it('property: result is within half a unit of x', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 6 }), (x, dp) => {
        expect(Math.abs(roundTo(x, dp) - x)).toBeLessThanOrEqual(0.5 * 10 ** -dp * (1 + 1e-9));
      }),
    );
  });
});

describe('normalizePrice', () => {
  it('normalizes each input form (hand-computed)', () => {
    // -110: d = 21/11 = 1.909090.. -> 1.9091; p = 110/210 = 0.5238095.. -> 0.52381
    expect(normalizePrice({ american: -110 })).toEqual({ american: -110, decimal: 1.9091, probability: 0.52381 });
    // decimal 2.0: +100, p 0.5
    expect(normalizePrice({ decimal: 2 })).toEqual({ american: 100, decimal: 2, probability: 0.5 });
    // decimal 1.5: -100/0.5 = -200, p = 2/3 -> 0.666667
    expect(normalizePrice({ decimal: 1.5 })).toEqual({ american: -200, decimal: 1.5, probability: 0.666667 });
    // probability 0.6: d = 1.6666.. -> 1.6667, american -150
    expect(normalizePrice({ probability: 0.6 })).toEqual({ american: -150, decimal: 1.6667, probability: 0.6 });
    // contract 0.42: d = 2.380952.. -> 2.381, american 138.095.. -> 138
    expect(normalizePrice({ contract_price: 0.42 })).toEqual({ american: 138, decimal: 2.381, probability: 0.42 });
    // american -100 is even money -> +100
    expect(normalizePrice({ american: -100 })).toEqual({ american: 100, decimal: 2, probability: 0.5 });
    // decimal 1.995: -100/0.995 = -100.5025 -> -101 (americanToDecimal(-101) = 1.990099, within 0.01)
    expect(normalizePrice({ decimal: 1.995 })).toEqual({ american: -101, decimal: 1.995, probability: 0.501253 });
  });

  it('rejects zero, several or invalid inputs', () => {
    expect(() => normalizePrice({})).toThrow(RangeError);
    expect(() => normalizePrice({ american: -110, decimal: 1.9091 })).toThrow(RangeError);
    expect(() => normalizePrice({ probability: 0.5, contract_price: 0.5 })).toThrow(RangeError);
    expect(() => normalizePrice({ american: 50 })).toThrow(RangeError);
    expect(() => normalizePrice({ decimal: 1 })).toThrow(RangeError);
    expect(() => normalizePrice({ probability: 1 })).toThrow(RangeError);
    expect(() => normalizePrice({ contract_price: 0 })).toThrow(RangeError);
    expect(() => normalizePrice({ decimal: Number.NaN })).toThrow(RangeError);
    // not representable: 1.00001 rounds to 1.0000; p = 1e-7 rounds to 0
    expect(() => normalizePrice({ decimal: 1.00001 })).toThrow(RangeError);
    expect(() => normalizePrice({ probability: 1e-7 })).toThrow(RangeError);
  });

  it('property: American and decimal outputs are consistent within 0.01', () => {
    const check = (r: { american: number; decimal: number; probability: number }): void => {
      expect(Number.isInteger(r.american)).toBe(true);
      expect(Math.abs(r.american)).toBeGreaterThanOrEqual(100);
      expect(Math.abs(americanToDecimal(r.american) - r.decimal)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(1 / r.decimal - r.probability)).toBeLessThanOrEqual(1e-4);
    };
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 100, max: 100_000 }), fc.integer({ min: -100_000, max: -100 })), (a) => {
        check(normalizePrice({ american: a }));
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 1.001, max: 1000, noNaN: true }), (d) => {
        check(normalizePrice({ decimal: d }));
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), (p) => {
        check(normalizePrice({ probability: p }));
        check(normalizePrice({ contract_price: p }));
      }),
    );
  });
});
