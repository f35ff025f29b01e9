import type { OddsRow } from '../../domain/odds-row.js';
import type { Detector, OpportunityRecord } from './detector.js';
import type { MarketCheck } from './guards.js';
import { dict } from '../../domain/dict.js';

/**
 * A record as it travels: the record's own fields, with each price it is made of (Detector.rows) replaced by
 * `{ $r: index }` into the message's row table (a row shared by many records travels once), and numbers JSON
 * cannot carry (NaN, ±Infinity) as `{ $n: "NaN" }`. Any other value travels as JSON.
 */
export type WireRecord = Record<string, unknown>;

/** One type's lifecycle changes in one scope. */
export interface WireChange {
  kind: string;
  scope: string;
  detected: WireRecord[];
  /** Re-evaluated records that changed in something besides `updatedAt` (registry.ts sameRecord), whole. */
  updated: WireRecord[];
  /**
   * Ids of records re-evaluated unchanged (absent when none): the replica holds them already and only takes
   * the message's `at` as their `updatedAt`. An id it does not hold means it drifted: it resyncs.
   */
  kept?: string[];
  /** Ids: a replica builds the expiry refs from the records it holds. */
  expired: string[];
}

/** Flag changes of market groups: the group's flags, or null when it holds no flagged venue market any more. */
export type WireFlags = Array<[group: string, flags: MarketCheck[] | null]>;

/** What the active worker publishes after each evaluation that changed anything. */
export interface LifecycleMessage {
  /** The worker's leadership term: numbers restart at 1 with each term. */
  epoch: string;
  /** Consecutive within an epoch: a replica that sees a number skipped resyncs. */
  n: number;
  /** Sequence of the change set that caused it (OpportunityEvent.seq). */
  seq: number;
  at: number;
  rows: OddsRow[];
  changes: WireChange[];
  flags: WireFlags;
}

/** The active worker's whole state at message `n` of `epoch`: every live registry and every flag. */
export interface LifecycleSnapshot {
  epoch: string;
  n: number;
  seq: number;
  at: number;
  rows: OddsRow[];
  registries: Array<{ kind: string; scope: string; records: WireRecord[] }>;
  flags: WireFlags;
}

/** Builds the row table of one message or snapshot while records are encoded. */
export class RowTable {
  readonly rows: OddsRow[] = [];
  private readonly index = new Map<OddsRow, number>();

  /** A record's wire form: its rows (as its detector lists them) become references into this table. */
  encode(detector: Detector, record: OpportunityRecord): WireRecord {
    const own = new Set<object>(detector.rows(record));
    return this.walk(record, own) as WireRecord;
  }

  private ref(row: OddsRow): { $r: number } {
    let i = this.index.get(row);
    if (i === undefined) {
      i = this.rows.length;
      this.rows.push(row);
      this.index.set(row, i);
    }
    return { $r: i };
  }

  private walk(v: unknown, own: Set<object>): unknown {
    if (typeof v === 'number') return Number.isFinite(v) ? v : { $n: String(v) };
    if (v === null || typeof v !== 'object') return v;
    if (own.has(v)) return this.ref(v as OddsRow);
    if (Array.isArray(v)) return v.map((x) => this.walk(x, own));
    const out: Record<string, unknown> = dict();
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = this.walk(x, own);
    return out;
  }
}

/** A record back from its wire form: row references resolved against the message's rows (shared objects). */
export function decodeRecord(wire: WireRecord, rows: readonly OddsRow[]): OpportunityRecord {
  return revive(wire, rows) as OpportunityRecord;
}

function revive(v: unknown, rows: readonly OddsRow[]): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => revive(x, rows));
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1) {
    if (keys[0] === '$r' && typeof o.$r === 'number') {
      const row = rows[o.$r];
      if (!row) throw new Error(`lifecycle record refers to row ${o.$r}, the message holds ${rows.length}`);
      return row;
    }
    if (keys[0] === '$n' && typeof o.$n === 'string') return Number(o.$n);
  }
  const out: Record<string, unknown> = dict();
  for (const k of keys) out[k] = revive(o[k], rows);
  return out;
}

/**
 * An order-independent fingerprint of a set of opportunity ids (the XOR of their FNV-1a hashes, 0 when empty):
 * instances holding the same ids show the same number (`/metrics`), which the load benchmark compares.
 */
export function idsDigest(ids: Iterable<string>): number {
  let acc = 0;
  for (const id of ids) {
    let h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    acc ^= h;
  }
  return acc >>> 0;
}

/** A wire record whose row references point `by` rows further on (its row table appended to another's). */
export function offsetRefs(wire: WireRecord, by: number): WireRecord {
  return by === 0 ? wire : (shift(wire, by) as WireRecord);
}

function shift(v: unknown, by: number): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => shift(x, by));
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === '$r' && typeof o.$r === 'number') return { $r: o.$r + by };
  const out: Record<string, unknown> = dict();
  for (const k of keys) out[k] = shift(o[k], by);
  return out;
}
