import { takeStopFile, writeStopFile } from '../../common/stop-file.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { Detector, OpportunityRecord } from './detector.js';
import { decodeRecord, RowTable, type WireFlags, type WireRecord } from './lifecycle-wire.js';
import type { LiveSet } from './registry.js';

/**
 * The live opportunities as a file, written at a clean stop of the embedded store beside the board's prices
 * (board-snapshot.bin) and read by the next start with them: the start serves what was live at the stop and
 * re-checks it in slices once it answers (as a worker taking over does), instead of finding every opportunity
 * again before it answers. The file names the board snapshot it goes with (`mark`): it is used only when the board
 * was rebuilt from that snapshot, and removed either way.
 *
 * Records are in their wire form (lifecycle-wire.ts), each price they are made of as an index into `rows`: the
 * price's id and the time it last changed, resolved against the rebuilt board. A record whose prices are not all
 * on the board as they were is left out (the re-check finds it again if it is still there). Records have the shapes
 * of the build that wrote them: another build (`build`, an upgrade) does not read the file.
 */
export interface OpportunityFile {
  format: typeof OPPORTUNITY_FILE_FORMAT;
  /** The build that wrote it (config/paths.ts buildId). */
  build: string;
  mark: string;
  rows: Array<[id: string, changedAt: number]>;
  registries: Array<{ kind: string; scope: string; records: WireRecord[] }>;
  flags: WireFlags;
}

export const OPPORTUNITY_FILE_FORMAT = 1;
export const OPPORTUNITY_FILE = 'opportunities-snapshot.json';

/** One registry to store: a type's live opportunities in one scope. */
export interface StoredRegistry {
  detector: Detector;
  scope: string;
  live: LiveSet<OpportunityRecord>;
}

export function opportunityFileOf(build: string, mark: string, registries: Iterable<StoredRegistry>, flags: WireFlags): OpportunityFile {
  const table = new RowTable();
  const out: OpportunityFile['registries'] = [];
  for (const { detector, scope, live } of registries) {
    if (!live.size) continue;
    const records: WireRecord[] = [];
    for (const r of live.values()) records.push(table.encode(detector, r));
    out.push({ kind: detector.kind, scope, records });
  }
  return {
    format: OPPORTUNITY_FILE_FORMAT,
    build,
    mark,
    rows: table.rows.map((r) => [r.id, r.changedAt]),
    registries: out,
    flags,
  };
}

export function writeOpportunityFile(path: string, file: OpportunityFile): void {
  writeStopFile(path, file);
}

/** What a start takes from the file: the records of each registry and the flags (records left out counted). */
export interface RestoredOpportunities {
  registries: Array<{ kind: string; scope: string; records: OpportunityRecord[] }>;
  flags: WireFlags;
  /** Records left out: a price of theirs not on the board as it was. */
  dropped: number;
}

/** Why a parsed file is not one this build reads for this board, or null. */
function problem(o: Partial<OpportunityFile> | null, build: string, mark: string): string | null {
  if (!o || o.format !== OPPORTUNITY_FILE_FORMAT || typeof o.mark !== 'string') return 'not a file of this format';
  if (o.build !== build) return 'written by another build';
  if (o.mark !== mark) return 'written with another board snapshot';
  if (!Array.isArray(o.rows) || o.rows.some((r) => !Array.isArray(r) || typeof r[0] !== 'string' || typeof r[1] !== 'number'))
    return 'its prices are not a list of prices';
  if (!Array.isArray(o.flags) || o.flags.some((f) => !Array.isArray(f) || typeof f[0] !== 'string')) return 'its flags are not a list';
  if (
    !Array.isArray(o.registries) ||
    o.registries.some((r) => !r || typeof r.kind !== 'string' || typeof r.scope !== 'string' || !Array.isArray(r.records))
  )
    return 'its registries are not a list';
  return null;
}

/**
 * Reads and removes the file. With `mark` (the board snapshot the board was rebuilt from): the opportunities it
 * holds when this build wrote it, their prices resolved on the board (`row(id)`), or null with why not. Without:
 * only removes it (a board rebuilt from the table goes with no stored opportunities).
 */
export function takeOpportunityFile(
  path: string,
  build: string,
  mark: string | null,
  row: (id: string) => OddsRow | undefined,
): { restored: RestoredOpportunities | null; refused?: string } {
  const file = takeStopFile(path);
  if ('missing' in file || mark === null) return { restored: null };
  if ('invalid' in file) return { restored: null, refused: file.invalid };
  const o = file.value as Partial<OpportunityFile> | null;
  const refused = problem(o, build, mark);
  if (refused) return { restored: null, refused };
  const f = o as OpportunityFile;
  // A price as it was at the stop, or a hole: a record pointing at a hole is left out.
  const rows = f.rows.map(([id, changedAt]) => {
    const r = row(id);
    return r && r.changedAt === changedAt ? r : undefined;
  }) as OddsRow[];
  let dropped = 0;
  const registries = f.registries.map(({ kind, scope, records }) => {
    const out: OpportunityRecord[] = [];
    for (const w of records) {
      try {
        const r = decodeRecord(w, rows);
        if (typeof r.id !== 'string' || typeof r.source !== 'string') throw new Error('not a record');
        out.push(r);
      } catch {
        dropped++;
      }
    }
    return { kind, scope, records: out };
  });
  return { restored: { registries, flags: f.flags, dropped } };
}
