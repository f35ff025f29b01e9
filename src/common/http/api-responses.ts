import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** `pagination` of a page (envelope.ts). */
export class PaginationDto {
  @ApiProperty({ description: 'Items asked for', example: 50 }) limit: number;
  @ApiProperty({ description: 'Items skipped', example: 0 }) offset: number;
  @ApiProperty({ description: 'Whether more items follow this page' }) has_more: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The offset of the next page; null on the last page', example: 50 }) next_offset: number | null;
}

/** `meta` of a page: counts and pagination, plus what the endpoint adds (filters, summary, updated_at). */
export class PageMetaDto {
  @ApiProperty({ description: 'Items on this page', example: 50 }) count: number;
  @ApiProperty({ description: 'Items matching in all', example: 312 }) total: number;
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

/**
 * Documents a 200 answer that is a page (`page()` in envelope.ts): `{success, data: [item], pagination, meta}`,
 * items described by `item` (a response DTO class). `meta` may carry more fields than PageMetaDto names.
 */
export function ApiPagedResponse(item: Type<unknown>, options: { description?: string } = {}) {
  return applyDecorators(
    ApiExtraModels(PaginationDto, PageMetaDto, item),
    ApiOkResponse({
      description: options.description ?? 'A page of items',
      schema: {
        type: 'object',
        required: ['success', 'data', 'pagination', 'meta'],
        properties: {
          success: { type: 'boolean', enum: [true] },
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          pagination: { $ref: getSchemaPath(PaginationDto) },
          meta: { allOf: [{ $ref: getSchemaPath(PageMetaDto) }], additionalProperties: true },
        },
      },
    }),
  );
}

/** Documents a 200 answer holding one object (`envelope()` in envelope.ts): `{success, data: item, ...}`. */
export function ApiDataResponse(item: Type<unknown>, options: { description?: string } = {}) {
  return applyDecorators(
    ApiExtraModels(item),
    ApiOkResponse({
      description: options.description ?? 'The object asked for',
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: {
          success: { type: 'boolean', enum: [true] },
          data: { $ref: getSchemaPath(item) },
        },
      },
    }),
  );
}
