import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

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
