import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
  type SchemaObject,
} from '@nestjs/swagger';

/**
 * The response envelopes (envelope.ts builds them) as OpenAPI schemas, one decorator per shape. Item and meta
 * classes are response DTOs; openapi.ts closes every schema a 2xx response reaches (no undeclared field), so a
 * field an answer carries must be declared here or in its DTO.
 */

/** `pagination` of a page (envelope.ts). */
export class PaginationDto {
  @ApiProperty({ description: 'Items asked for', example: 50 }) limit: number;
  @ApiProperty({ description: 'Items skipped', example: 0 }) offset: number;
  @ApiProperty({ description: 'Whether more items follow this page' }) has_more: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The offset of the next page; null on the last page', example: 50 })
  next_offset: number | null;
}

/** `pagination` of /odds: also an opaque keyset cursor, to page past the offset limit. */
export class CursorPaginationDto extends PaginationDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' })
  next_cursor?: string | null;
}

/** `meta` of a page: counts and pagination. Endpoints that add fields extend it. */
export class PageMetaDto {
  @ApiProperty({ description: 'Items on this page', example: 50 }) count: number;
  @ApiProperty({ description: 'Items matching in all', example: 312 }) total: number;
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

/** `meta` of an unpaged list (reference data): counts only. */
export class ListMetaDto {
  @ApiProperty({ description: 'Items in the list', example: 5 }) count: number;
  @ApiProperty({ description: 'Items matching in all (the same: these lists are not paged)', example: 5 }) total: number;
}

/** What an envelope may carry besides `data`. */
export interface EnvelopeOptions {
  description?: string;
  /**
   * The `meta` DTO. `open`: an object of fields not described one by one. Omitted on a page: PageMetaDto's
   * fields, open to others (the opportunity lists add theirs); omitted on one object: no `meta`.
   */
  meta?: Type<unknown> | 'open';
  /** Top-level fields beyond success, data, pagination, meta and updated_at (all optional). */
  extra?: Record<string, SchemaObject>;
  /** The status of the answer (200 unless told). */
  status?: number;
}

const UPDATED_AT: SchemaObject = { type: 'string', format: 'date-time', description: 'When the data was last updated (or read)' };
const ref = (t: Type<unknown>): SchemaObject => ({ $ref: getSchemaPath(t) }) as SchemaObject;
/** One class: a reference to it; several: any one of them. */
const itemSchema = (item: Type<unknown> | Type<unknown>[]): SchemaObject => (Array.isArray(item) ? { anyOf: item.map(ref) } : ref(item));
const models = (...all: Array<Type<unknown> | Type<unknown>[] | 'open' | undefined>) =>
  all.flat().filter((t): t is Type<unknown> => typeof t === 'function');
const OPEN_META: SchemaObject = { type: 'object', additionalProperties: true, description: 'Filters echoed and figures of the answer' };
const metaSchema = (meta: Type<unknown> | 'open'): SchemaObject => (meta === 'open' ? OPEN_META : ref(meta));

function envelopeResponse(
  data: SchemaObject,
  required: string[],
  properties: Record<string, SchemaObject>,
  o: EnvelopeOptions,
  fallback: string,
) {
  const schema: SchemaObject = {
    type: 'object',
    required: ['success', 'data', ...required],
    properties: { success: { type: 'boolean', enum: [true] }, data, ...properties, updated_at: UPDATED_AT, ...(o.extra ?? {}) },
  };
  const description = o.description ?? fallback;
  return o.status && o.status !== 200 ? ApiResponse({ status: o.status, description, schema }) : ApiOkResponse({ description, schema });
}

/**
 * A page (`page()` in envelope.ts): `{success, data: [item], pagination, meta}`, items described by `item`
 * (a response DTO class, or several: any one of them).
 */
export function ApiPagedResponse(item: Type<unknown> | Type<unknown>[], o: EnvelopeOptions & { pagination?: Type<unknown> } = {}) {
  const pagination = o.pagination ?? PaginationDto;
  const meta: SchemaObject = o.meta
    ? metaSchema(o.meta)
    : {
        type: 'object',
        required: ['count', 'total', 'pagination'],
        properties: { count: { type: 'integer' }, total: { type: 'integer' }, pagination: ref(PaginationDto) },
        additionalProperties: true,
      };
  return applyDecorators(
    ApiExtraModels(...models(PaginationDto, pagination, o.meta, item)),
    envelopeResponse(
      { type: 'array', items: itemSchema(item) },
      ['pagination', 'meta'],
      { pagination: ref(pagination), meta },
      o,
      'A page of items',
    ),
  );
}

/** A whole list, not paged (`envelope(list, {meta})`): `{success, data: [item], meta}`. */
export function ApiListResponse(item: Type<unknown>, o: EnvelopeOptions = {}) {
  const meta = o.meta ?? ListMetaDto;
  return applyDecorators(
    ApiExtraModels(...models(item, meta)),
    envelopeResponse({ type: 'array', items: ref(item) }, ['meta'], { meta: metaSchema(meta) }, o, 'Every item'),
  );
}

/**
 * One object (`envelope()` in envelope.ts): `{success, data: item}`, with `meta` when `o.meta` names its DTO.
 * `item`: a response DTO class, or a schema for data that is not an object (a list of names).
 */
export function ApiDataResponse(item: Type<unknown> | SchemaObject, o: EnvelopeOptions = {}) {
  const isClass = typeof item === 'function';
  return applyDecorators(
    ApiExtraModels(...models(isClass ? item : undefined, o.meta)),
    envelopeResponse(
      isClass ? ref(item) : item,
      o.meta ? ['meta'] : [],
      o.meta ? { meta: metaSchema(o.meta) } : {},
      o,
      'The object asked for',
    ),
  );
}

/** `{success, data: {key: [item]}}`: lists of items keyed by an id (a book's or an event's), with its `meta`. */
export function ApiMapResponse(item: Type<unknown>, o: EnvelopeOptions & { key: string }) {
  const data: SchemaObject = {
    type: 'object',
    description: `Keyed by ${o.key}`,
    additionalProperties: { type: 'array', items: ref(item) },
  };
  return applyDecorators(
    ApiExtraModels(...models(item, o.meta)),
    envelopeResponse(data, o.meta ? ['meta'] : [], o.meta ? { meta: metaSchema(o.meta) } : {}, o, 'Items keyed by id'),
  );
}

/** A 200 answer of another media type than JSON (a stream, a text format): what the body is, in words. */
export function ApiTextResponse(mediaType: string, description: string) {
  return ApiOkResponse({ description, content: { [mediaType]: { schema: { type: 'string', description } } } });
}
