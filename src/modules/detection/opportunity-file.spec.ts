import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { OddsRow } from '../../domain/odds-row.js';
import { oddsRow } from '../board/board.fixtures.js';
import type { Detector, OpportunityRecord } from './detector.js';
import type { MarketCheck } from './guards.js';
import { opportunityFileOf, takeOpportunityFile, writeOpportunityFile, type OpportunityFile } from './opportunity-file.js';
import { OpportunityRegistry } from './registry.js';

/** A two-leg record: its prices are its legs' rows (what its detector lists). */
interface ArbLike extends OpportunityRecord {
  legs: Array<{ row: OddsRow; stake: number }>;
  profit: number;
  note?: string;
}
const detector = { kind: 'arb', rows: (r: ArbLike) => r.legs.map((l) => l.row) } as unknown as Detector;

const a = oddsRow('ra', { sportsbook: 'draftkings', american: 115, changedAt: 1_000 });
const b = oddsRow('rb', { sportsbook: 'fanduel', american: -105, changedAt: 2_000 });
const c = oddsRow('rc', { sportsbook: 'pinnacle', american: -110, changedAt: 3_000 });
const record = (id: string, legs: OddsRow[], extra: Partial<ArbLike> = {}): ArbLike => ({
  kind: 'arb',
  id,
  source: 'g1',
  eventId: 'ev1',
  marketType: 'moneyline',
  detectedAt: 500,
  updatedAt: 900,
  guards: { warnings: [] } as unknown as OpportunityRecord['guards'],
  legs: legs.map((row, i) => ({ row, stake: 50 + i })),
  profit: 1.25,
  ...extra,
});

const registryOf = (...records: ArbLike[]) => {
  const reg = new OpportunityRegistry<OpportunityRecord>();
  reg.load(records);
  return reg;
};

describe('the live opportunities stored at a clean stop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opportunity-file-'));
  const flag = { book: 'fanduel', reason: 'stale' } as unknown as MarketCheck;
  /** The board of the next start: the same prices, as new objects (rebuilt from the board snapshot). */
  const rebuilt = new Map([a, b, c].map((r) => [r.id, { ...r }]));
  const onBoard = (id: string) => rebuilt.get(id);

  const write = (path: string) => {
    const arb1 = record('x1', [a, b], { note: 'Kiké' });
    const arb2 = record('x2', [a, c], { profit: Number.NaN });
    const file = opportunityFileOf(
      'b1',
      'mark-1',
      [
        { detector, scope: 'all', live: registryOf(arb1, arb2) },
        { detector, scope: 'hobby', live: registryOf(arb1) },
        { detector, scope: 'pro', live: registryOf() },
      ],
      [['g1', [flag]]],
    );
    writeOpportunityFile(path, file);
    return { arb1, arb2, file };
  };

  it('gives back every record of every registry, its prices the rebuilt board’s, and the flags; read once', () => {
    const path = join(dir, 'a.json');
    const { arb1, arb2, file } = write(path);
    // A price shared by two records is stored once; an empty registry is not stored.
    expect(file.rows).toEqual([
      ['ra', 1_000],
      ['rb', 2_000],
      ['rc', 3_000],
    ]);
    expect(file.registries.map((r) => r.scope)).toEqual(['all', 'hobby']);
    const { restored, refused } = takeOpportunityFile(path, 'b1', 'mark-1', onBoard);
    expect(refused).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    expect(restored!.dropped).toBe(0);
    expect(restored!.flags).toEqual([['g1', [flag]]]);
    const [all, hobby] = restored!.registries;
    expect(all!.records).toEqual([arb1, arb2]);
    expect(hobby).toEqual({ kind: 'arb', scope: 'hobby', records: [arb1] });
    // The legs are the board's own rows (a row leaving the board then re-evaluates the record), not copies.
    const back = all!.records as ArbLike[];
    expect(back[0]!.legs[0]!.row).toBe(rebuilt.get('ra'));
    expect(back[1]!.legs[1]!.row).toBe(rebuilt.get('rc'));
    expect(back[1]!.profit).toBeNaN();
    expect(takeOpportunityFile(path, 'b1', 'mark-1', onBoard)).toEqual({ restored: null });
  });

  it('leaves out a record whose price is not on the board as it was (changed since, or gone)', () => {
    const path = join(dir, 'b.json');
    const { arb2 } = write(path);
    const board = new Map(rebuilt);
    board.set('rb', { ...b, changedAt: 2_500 });
    const { restored } = takeOpportunityFile(path, 'b1', 'mark-1', (id) => board.get(id));
    expect(restored!.registries[0]!.records).toEqual([arb2]);
    expect(restored!.registries[1]!.records).toEqual([]);
    expect(restored!.dropped).toBe(2);

    write(path);
    board.delete('rc');
    board.set('rb', b);
    expect(takeOpportunityFile(path, 'b1', 'mark-1', (id) => board.get(id)).restored!.dropped).toBe(1);
  });

  it('is only removed when the board was not rebuilt from its snapshot, and refused with another snapshot or build', () => {
    const path = join(dir, 'c.json');
    write(path);
    expect(takeOpportunityFile(path, 'b1', null, onBoard)).toEqual({ restored: null });
    expect(existsSync(path)).toBe(false);
    write(path);
    expect(takeOpportunityFile(path, 'b1', 'mark-2', onBoard)).toEqual({ restored: null, refused: 'written with another board snapshot' });
    expect(existsSync(path)).toBe(false);
    // Another build (an upgrade between the stop and the start): its records may have other shapes.
    write(path);
    expect(takeOpportunityFile(path, 'b2', 'mark-1', onBoard)).toEqual({ restored: null, refused: 'written by another build' });
    expect(existsSync(path)).toBe(false);
  });

  const good = (): OpportunityFile & Record<string, unknown> =>
    opportunityFileOf('b1', 'mark-1', [{ detector, scope: 'all', live: registryOf(record('x1', [a, b])) }], []) as OpportunityFile &
      Record<string, unknown>;
  const broken = (change: (f: OpportunityFile & Record<string, unknown>) => void) => {
    const f = good();
    change(f);
    return JSON.stringify(f);
  };
  it.each([
    ['not JSON', '{"format": 1, ', 'not JSON'],
    ['another format', broken((f) => (f.format = 2 as 1)), 'not a file of this format'],
    [
      'prices that are not prices',
      broken((f) => (f.rows = [['ra', 'x']] as unknown as OpportunityFile['rows'])),
      'its prices are not a list of prices',
    ],
    ['flags that are not a list', broken((f) => (f.flags = {} as OpportunityFile['flags'])), 'its flags are not a list'],
    [
      'a registry without records',
      broken((f) => delete (f.registries[0] as Partial<OpportunityFile['registries'][0]>).records),
      'its registries are not a list',
    ],
  ])('a file this build does not read (%s) is refused and removed', (_why, text, refused) => {
    const path = join(dir, 'd.json');
    writeFileSync(path, text);
    expect(takeOpportunityFile(path, 'b1', 'mark-1', onBoard)).toEqual({ restored: null, refused });
    expect(existsSync(path)).toBe(false);
  });

  it('leaves out a stored record that is not one (no id), and one pointing past the stored prices', () => {
    const f = good();
    f.registries[0]!.records.push({ source: 'g1' }, { id: 'x9', source: 'g1', legs: [{ row: { $r: 7 } }] });
    const path = join(dir, 'e.json');
    writeFileSync(path, JSON.stringify(f));
    const { restored } = takeOpportunityFile(path, 'b1', 'mark-1', onBoard);
    expect(restored!.registries[0]!.records.map((r) => r.id)).toEqual(['x1']);
    expect(restored!.dropped).toBe(2);
  });
});
