import { describe, expect, it } from '@jest/globals';
import { all, away, boardWith, groupOf, home } from '../../../test/factories/detection.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { detectArbitrage } from '../arbitrage/arbitrage.detector.js';
import { detectEv } from '../ev/ev.detector.js';
import type { Detector, OpportunityRecord } from './detector.js';
import { decodeRecord, RowTable } from './lifecycle-wire.js';
import type { ArbitrageRecord } from '../arbitrage/arbitrage.record.js';
import type { EvRecord } from '../ev/ev.record.js';

/** Only what the wire form reads of a detector: the rows a record is made of. */
const byRows = (rows: (r: OpportunityRecord) => readonly OddsRow[]) => ({ rows }) as unknown as Detector;
const arbRows = byRows((r) => (r as ArbitrageRecord).legs.map((l) => l.row));
const evRows = byRows((r) => [(r as EvRecord).row, ...(r as EvRecord).sharpRows]);

/** Through the bus: the message is JSON on the way. */
const overTheWire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('lifecycle wire form', () => {
  const { ctx, board } = boardWith([
    home('draftkings', { american: 110 }),
    away('draftkings', { american: -130 }),
    home('fanduel', { american: -125 }),
    away('fanduel', { american: 105 }),
    home('pinnacle', { american: -102 }),
    away('pinnacle', { american: -108 }),
  ]);
  const group = groupOf(board);
  const arb = detectArbitrage(ctx, group, all)!;
  const evs = detectEv(ctx, group);

  it('gives back records equal to the detected ones, rows included, after a JSON round trip', () => {
    expect(arb).not.toBeNull();
    expect(evs.length).toBeGreaterThan(0);
    const table = new RowTable();
    const wire = overTheWire({ arb: table.encode(arbRows, arb), evs: evs.map((e) => table.encode(evRows, e)), rows: table.rows });
    expect(decodeRecord(wire.arb, wire.rows)).toEqual(arb);
    expect(wire.evs.map((w) => decodeRecord(w, wire.rows))).toEqual(evs);
  });

  it('sends each price once however many records use it, and revives it as one shared object', () => {
    const table = new RowTable();
    const encoded = [table.encode(arbRows, arb), ...evs.map((e) => table.encode(evRows, e))];
    const used = new Set([...arb.legs.map((l) => l.row), ...evs.flatMap((e) => [e.row, ...e.sharpRows])]);
    expect(table.rows).toHaveLength(used.size);
    const wire = overTheWire({ encoded, rows: table.rows });
    const [a, ...e] = wire.encoded.map((w) => decodeRecord(w, wire.rows)) as [ArbitrageRecord, ...EvRecord[]];
    // A price used by two records is one object in both, as on the worker.
    const twice = overTheWire({ w: [table.encode(arbRows, arb), table.encode(arbRows, arb)], rows: table.rows });
    const [x, y] = twice.w.map((w) => decodeRecord(w, twice.rows)) as [ArbitrageRecord, ArbitrageRecord];
    expect(x.legs[0]!.row).toBe(y.legs[0]!.row);
    expect(table.rows).toHaveLength(used.size);
    const shared = e.flatMap((r) => [r.row, ...r.sharpRows]).filter((r) => arb.legs.some((l) => l.row.id === r.id));
    for (const r of shared) expect(r).toBe(a.legs.find((l) => l.row.id === r.id)!.row);
    const dkHome = a.legs.find((l) => l.row.sportsbook === 'draftkings')!.row;
    expect(dkHome).toEqual(board.rows.get(dkHome.id));
  });

  it('carries numbers JSON cannot (NaN, infinities), nested values, and drops undefined fields as JSON would', () => {
    const row = arb.legs[0]!.row;
    const rec = {
      ...arb,
      extra: { ratio: Infinity, low: -Infinity, nothing: NaN, list: [1, { $r: 'not a ref' }, null], maybe: undefined },
    } as unknown as OpportunityRecord;
    const table = new RowTable();
    const wire = overTheWire({
      w: table.encode(
        byRows(() => [row]),
        rec,
      ),
      rows: table.rows,
    });
    const back = decodeRecord(wire.w, wire.rows) as unknown as { extra: Record<string, unknown>; legs: ArbitrageRecord['legs'] };
    expect(back.extra).toEqual({ ratio: Infinity, low: -Infinity, nothing: NaN, list: [1, { $r: 'not a ref' }, null] });
    expect(back.legs[0]!.row).toEqual(row);
    // A price the detector does not list travels inline (still equal).
    expect(back.legs[1]!.row).toEqual(arb.legs[1]!.row);
    expect(table.rows).toEqual([row]);
  });

  it('refuses a reference to a row the message does not hold', () => {
    expect(() => decodeRecord({ id: 'x', row: { $r: 3 } }, [])).toThrow(/row 3/);
  });
});
