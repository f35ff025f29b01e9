import { dict } from '../../domain/dict.js';
/**
 * The response envelopes: `{success: true, data}`, and for pages also `pagination` {limit, offset, has_more,
 * next_offset} and `meta` {count, total, pagination, ...} (the pagination twice: clients read either). One place
 * builds them; api-responses.ts documents them.
 */
export interface Pagination {
  limit: number;
  offset: number;
  has_more: boolean;
  next_offset: number | null;
}

export interface DataEnvelope<T> {
  success: true;
  data: T;
  [extra: string]: unknown;
}

export interface PageEnvelope<T> {
  success: true;
  data: T[];
  pagination: Pagination;
  meta: { count: number; total: number; pagination: Pagination; [extra: string]: unknown };
  [extra: string]: unknown;
}

export function envelope<T>(data: T, extra: Record<string, unknown> = dict()): DataEnvelope<T> {
  return { success: true, data, ...extra };
}

export function pagination(limit: number, offset: number, total: number, count: number): Pagination {
  const hasMore = offset + count < total;
  return { limit, offset, has_more: hasMore, next_offset: hasMore ? offset + count : null };
}

/**
 * A page of already-sliced items. `total` is the number of all matches; `meta` extras are merged into meta,
 * `top` extras into the top level (e.g. `updated_at`).
 */
export function page<T>(
  items: T[],
  p: { limit: number; offset: number; total: number },
  meta: Record<string, unknown> = dict(),
  top: Record<string, unknown> = dict(),
): PageEnvelope<T> {
  const pg = pagination(p.limit, p.offset, p.total, items.length);
  return { success: true, data: items, pagination: pg, meta: { count: items.length, total: p.total, ...meta, pagination: pg }, ...top };
}

/** Slice an array into a page envelope. */
export function paginate<T>(
  all: readonly T[],
  limit: number,
  offset: number,
  meta: Record<string, unknown> = dict(),
  top: Record<string, unknown> = dict(),
): PageEnvelope<T> {
  return page(all.slice(offset, offset + limit), { limit, offset, total: all.length }, meta, top);
}
