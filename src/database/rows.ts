import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { dict } from '../domain/dict.js';
import { isEmbedded } from './data-source.js';

const lists = new WeakMap<object, string>();

/**
 * The select list of an entity's table, every column under its entity property name (`"event_id" AS
 * "eventId"`), taken from the entity's metadata. A raw query selecting it returns rows shaped like the entity,
 * with the driver's values (timestamptz as Date, jsonb parsed, bigint as string), so a repository maps them
 * with one typed function per table instead of casting field by field. The entities match the migrations
 * exactly (test/e2e/schema.e2e-spec.ts), so a renamed column fails there or in the repository round trips.
 */
export function selectList(ds: DataSource, entity: EntityTarget<ObjectLiteral>): string {
  const meta = ds.getMetadata(entity);
  let list = lists.get(meta);
  if (!list) {
    list = meta.columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`).join(', ');
    lists.set(meta, list);
  }
  return list;
}

/** Epoch milliseconds of a timestamptz value. */
export function epochMs(v: Date): number {
  return v.getTime();
}

/** A column of a compact row (readCompact): the entity property its value goes to, and whether it is a time. */
interface CompactColumn {
  prop: string;
  /** A time, held as epoch ms in the row and as a Date in the entity. */
  time: boolean;
}

/** An entity from the values of a compact row, one per column in order (times from epoch ms to Date). */
function entityFromValues<T>(cols: readonly CompactColumn[], values: readonly unknown[]): T {
  const row: Record<string, unknown> = dict();
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i]!;
    const v = values[i];
    row[c.prop] = c.time && v !== null ? new Date(v as number) : v;
  }
  return row as T;
}

/** How many heap blocks (8 kB each) of the table one compact read (see readCompact) covers at a time. */
const COMPACT_BLOCKS = 1024;

/**
 * Every row of an entity's table, shaped as `selectList` shapes them, read as pages of JSON arrays (one text
 * value per page, timestamps as epoch milliseconds) rather than as rows of columns: PGlite decodes one long text
 * much faster than thousands of rows of forty fields. Pages are ranges of the table's storage blocks (a TID range
 * scan: the blocks in the order they lie, no index, no sort), so each stays a bounded text; they are read in
 * one REPEATABLE READ transaction, so a row updated meanwhile (a new version in another block) is read exactly
 * once. Rows come in storage order, not key order. `map` shapes each row as its page is read, so the caller's
 * form of the table is all that is held at the end, never the rows as well.
 */
export async function readCompact<T extends ObjectLiteral, R = T>(
  ds: DataSource,
  entity: EntityTarget<T>,
  blocksPerPage = COMPACT_BLOCKS,
  map: (row: T) => R = (row) => row as unknown as R,
): Promise<R[]> {
  const meta = ds.getMetadata(entity);
  const cols = meta.columns.map((c) => ({ name: c.databaseName, prop: c.propertyName, time: c.type === 'timestamptz' }));
  const select = cols.map((c) => (c.time ? `(extract(epoch from "${c.name}") * 1000)::float8` : `"${c.name}"`)).join(', ');
  const step = Math.max(1, Math.trunc(blocksPerPage));
  const sql = `SELECT coalesce(json_agg(json_build_array(${select})), '[]')::text AS page FROM "${meta.tableName}" WHERE ctid >= $1::tid AND ctid < $2::tid`;
  const out: R[] = [];
  const runner = ds.createQueryRunner();
  try {
    await runner.startTransaction('REPEATABLE READ');
    const [size] = (await runner.query(
      `SELECT (pg_relation_size('"${meta.tableName}"') / current_setting('block_size')::int)::int AS blocks`,
    )) as Array<{ blocks: number }>;
    for (let block = 0; block < size!.blocks; block += step) {
      const [r] = (await runner.query(sql, [`(${block},0)`, `(${block + step},0)`])) as Array<{ page: string }>;
      for (const values of JSON.parse(r!.page) as unknown[][]) out.push(map(entityFromValues<T>(cols, values)));
    }
    await runner.commitTransaction();
    return out;
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/**
 * Every row of an entity's table, each shaped by `map` as it is read: as compact pages on the embedded store
 * (readCompact: about twice as fast on PGlite, and the entities of the whole table are never held at once), in
 * one query on PostgreSQL.
 */
export async function readTable<T extends ObjectLiteral, R>(ds: DataSource, entity: EntityTarget<T>, map: (row: T) => R): Promise<R[]> {
  if (isEmbedded(ds)) return readCompact(ds, entity, undefined, map);
  const rows = await ds.query<T[]>(`SELECT ${selectList(ds, entity)} FROM "${ds.getMetadata(entity).tableName}"`);
  return rows.map(map);
}
