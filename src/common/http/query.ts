import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Max, Min, ValidateBy } from 'class-validator';
import { foldName } from '../../config/catalog.js';

/**
 * Shared query-parameter parsing. Values arrive as strings (or arrays for repeated keys); these transforms
 * turn well-formed values into typed ones and leave anything else as it was, so the validators reject it
 * with a 400 naming the parameter, never a 500.
 */

const first = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

/** Comma-separated (or repeated) list of strings: "a,b" or a=a&a=b -> ["a","b"]. Empty items are dropped. */
export function splitList(value: unknown): string[] | unknown {
  const parts = Array.isArray(value) ? value : [value];
  if (!parts.every((p) => typeof p === 'string')) return value;
  return (parts as string[])
    .flatMap((p) => p.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A list parameter. With `aliases`, the values of those parameters are added to its own (`market_type=` to
 * `market`), so whatever reads the DTO reads one property; each alias is declared as a property of its own too, so
 * that it is a known parameter and validated.
 */
export function CsvList(opts: { lowercase?: boolean; aliases?: readonly string[] } = {}) {
  const aliases = opts.aliases ?? [];
  const transform = Transform(({ value, obj }) => {
    const given = aliases.length
      ? [value, ...aliases.map((a) => (obj as Record<string, unknown>)[a])].filter((v) => v !== undefined)
      : [value];
    if (!given.length) return undefined;
    const out = splitList(given.flat());
    return Array.isArray(out) && opts.lowercase ? out.map((s: string) => s.toLowerCase()) : out;
  });
  // Exposed: the merge runs when only an alias is given.
  return aliases.length ? applyDecorators(Expose(), transform) : transform;
}

export function parseBoolean(value: unknown): boolean | unknown {
  const v = first(value);
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes') return true;
  if (s === 'false' || s === '0' || s === 'no') return false;
  return v;
}

export const BooleanParam = () => Transform(({ value }) => parseBoolean(value));

/** Integer parameter: only a plain (optionally signed) integer string becomes a number. */
export const IntParam = () =>
  Transform(({ value }) => {
    const v = first(value);
    return typeof v === 'string' && /^[+-]?\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  });

/** Decimal parameter: a finite decimal number string becomes a number. */
export const NumberParam = () =>
  Transform(({ value }) => {
    const v = first(value);
    return typeof v === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(v.trim()) ? Number(v) : v;
  });

/** Single string parameter (a repeated key is refused by the validation pipe before this runs). */
export const StringParam = () => Transform(({ value }) => first(value));

/** True when a search text keeps something to match once folded the way names are (Latin letters and digits). */
export function searchable(value: unknown): boolean {
  return typeof value === 'string' && foldName(value) !== '';
}

/**
 * A text search parameter (team, q): one string of at most 100 characters that must contain a Latin letter or a
 * digit. Matching folds accents, case and punctuation away, so a search of punctuation alone ("!!") would match
 * every name: it is refused with 400 rather than answered with everything unfiltered.
 */
export const SearchText = () =>
  applyDecorators(
    StringParam(),
    IsString(),
    MaxLength(100),
    ValidateBy({
      name: 'searchable',
      validator: {
        validate: searchable,
        defaultMessage: (a) =>
          `${a?.property ?? 'the search'} must contain at least one letter (A-Z, accents ignored) or digit; punctuation alone matches nothing`,
      },
    }),
  );

/**
 * Parameters every query accepts: the key (for SSE/EventSource clients) and the SDKs' deep-link `state`,
 * which this service accepts and ignores. Unknown parameters are refused with a 400 so that a typo never
 * silently returns unfiltered data.
 */
export class BaseQuery {
  // Documented once, as the ApiKeyQuery security scheme (Swagger UI's Authorize dialog), not as a parameter of
  // every operation that "Try it out" would fill in.
  @ApiHideProperty()
  @IsOptional()
  @IsString()
  @StringParam()
  api_key?: string;

  @ApiPropertyOptional({
    description:
      'US state for deep links, such as `pa` (accepted for SDK compatibility): the links in responses point at GET /deeplink/{id}, which routes state-specific books (BetMGM, Caesars, BetRivers) by its own `state` parameter',
  })
  @IsOptional()
  @IsString()
  @StringParam()
  state?: string;
}

export interface PageBounds {
  defaultLimit: number;
  /** The largest page served. */
  maxLimit: number;
  maxOffset: number;
  /**
   * Limits above `maxLimit` up to this one are served as `maxLimit` pages instead of being refused (the response
   * says so with `X-Limit-Clamped`, see limit-clamp.ts); above it, 400. Omitted: nothing above `maxLimit` is taken.
   */
  clampUpTo?: number;
}

/**
 * The page of the lists served 200 items at a time (/events, /odds/best, the opportunity lists, /futures): the
 * official clients document limits up to 500 there, so 201-500 are served as 200 rather than refused.
 */
export const PAGE_DEFAULT: PageBounds = { defaultLimit: 50, maxLimit: 200, maxOffset: 5000, clampUpTo: 500 };

/** The limit a page of these bounds serves for an asked limit (an integer already); out-of-range values unchanged. */
export function servedLimit(bounds: PageBounds, asked: number): number {
  return bounds.clampUpTo !== undefined && asked > bounds.maxLimit && asked <= bounds.clampUpTo ? bounds.maxLimit : asked;
}

/**
 * The `limit` parameter of a page: an integer from 1 to `maxLimit`, or, with `clampUpTo`, up to that and served as
 * `maxLimit`. The parsed value is the limit applied, so `pagination.limit`, `has_more` and `next_offset` follow it.
 */
export function LimitParam(bounds: PageBounds) {
  const accepted = bounds.clampUpTo ?? bounds.maxLimit;
  const clamps = accepted > bounds.maxLimit;
  const clampNote = clamps
    ? `; pages hold at most ${bounds.maxLimit} items: a limit from ${bounds.maxLimit + 1} to ${accepted} is served as ${bounds.maxLimit}, and the response then carries the header \`X-Limit-Clamped: ${bounds.maxLimit}\``
    : '';
  return applyDecorators(
    ApiPropertyOptional({
      description: `Page size (1-${accepted})${clampNote}`,
      default: bounds.defaultLimit,
      minimum: 1,
      maximum: accepted,
      type: 'integer',
    }),
    Transform(({ value }) => {
      const v = first(value);
      return typeof v === 'string' && /^[+-]?\d{1,15}$/.test(v.trim()) ? servedLimit(bounds, Number(v)) : v;
    }),
    IsInt({ message: 'limit must be an integer' }),
    Min(1, { message: 'limit must be at least 1' }),
    Max(accepted, {
      message: `limit must not be greater than ${accepted}${clamps ? ` (from ${bounds.maxLimit + 1} to ${accepted}, pages of ${bounds.maxLimit} are served)` : ''}`,
    }),
  );
}

/** limit/offset with per-endpoint bounds; over the offset maximum is 400 offset_too_large. */
export function PageQuery(bounds: PageBounds = PAGE_DEFAULT) {
  class PageQueryBase extends BaseQuery {
    @LimitParam(bounds)
    limit: number = bounds.defaultLimit;

    @ApiPropertyOptional({
      description: `Items to skip (0-${bounds.maxOffset})`,
      default: 0,
      minimum: 0,
      maximum: bounds.maxOffset,
      type: 'integer',
    })
    @IntParam()
    @IsInt({ message: 'offset must be an integer' })
    @Min(0, { message: 'offset must not be negative' })
    @Max(bounds.maxOffset, {
      message: `offset must not be greater than ${bounds.maxOffset}`,
      context: { code: 'offset_too_large', max_offset: bounds.maxOffset },
    })
    offset: number = 0;
  }
  return PageQueryBase;
}

export const ApiCsv = (description: string, example: string) =>
  applyDecorators(ApiPropertyOptional({ description: `${description} (comma-separated)`, example, type: String }));
