import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { dict } from '../domain/dict.js';

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

/** How many rows one compact read (see readCompact) brings at a time. */
const COMPACT_PAGE = 20_000;

/**
 * Every row of an entity's table, shaped as `selectList` shapes them, read as pages of JSON arrays (one text
 * value per page, timestamps as epoch milliseconds) rather than as rows of columns. On the embedded store this
 * reads a large table in about half the time: PGlite decodes one long text much faster than thousands of rows
 * of forty fields. Pages follow the primary key (`id`), so each stays a bounded text.
 */
export async function readCompact<T extends ObjectLiteral>(ds: DataSource, entity: EntityTarget<T>, pageSize = COMPACT_PAGE): Promise<T[]> {
  const meta = ds.getMetadata(entity);
  const cols = meta.columns.map((c) => ({ name: c.databaseName, prop: c.propertyName, time: c.type === 'timestamptz' }));
  const select = cols.map((c) => (c.time ? `(extract(epoch from "${c.name}") * 1000)::float8` : `"${c.name}"`)).join(', ');
  const sql = `SELECT coalesce(json_agg(json_build_array(${select}) ORDER BY "id"), '[]')::text AS page, max("id") AS last
    FROM (SELECT * FROM "${meta.tableName}" WHERE "id" > $1 ORDER BY "id" LIMIT ${Math.max(1, Math.trunc(pageSize))}) t`;
  const out: T[] = [];
  let after = '';
  for (;;) {
    const [r] = await ds.query<Array<{ page: string; last: string | null }>>(sql, [after]);
    const page = JSON.parse(r!.page) as unknown[][];
    for (const values of page) {
      const row: Record<string, unknown> = dict();
      for (let i = 0; i < cols.length; i++) {
        const c = cols[i]!;
        const v = values[i];
        row[c.prop] = c.time && v !== null ? new Date(v as number) : v;
      }
      out.push(row as T);
    }
    if (page.length < pageSize || r!.last === null) return out;
    after = r!.last;
  }
}
