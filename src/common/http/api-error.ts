/** Every error code the API emits (error-docs.ts says what each means). The filter maps them to HTTP exhaustively. */
export type ErrorCode =
  | 'invalid_request'
  | 'offset_too_large'
  | 'too_few_legs'
  | 'too_many_legs'
  | 'unknown_leg'
  | 'ambiguous_leg'
  | 'correlation_unsupported'
  | 'unauthorized'
  | 'tier_restricted'
  | 'feature_disabled'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'gone'
  | 'unknown_endpoint'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'header_too_large'
  | 'rate_limited'
  | 'too_many_streams'
  | 'internal_error'
  | 'service_unavailable';

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  offset_too_large: 400,
  too_few_legs: 400,
  too_many_legs: 400,
  unknown_leg: 400,
  ambiguous_leg: 400,
  correlation_unsupported: 400,
  unauthorized: 401,
  tier_restricted: 403,
  feature_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  gone: 410,
  unknown_endpoint: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** Extra fields copied into the error object and to the top level of the body (SDKs read them there). */
export interface ErrorExtras {
  required_tier?: string;
  tier?: string;
  retry_after?: number;
  max_books?: number;
  requested_books?: number;
  max_offset?: number;
  max_batch?: number;
  max_keys?: number;
  parameter?: string;
  correct_endpoint?: string;
  feature?: string;
  /** The add-on that would grant the refused feature (`game_state`). */
  addon?: string;
  /** POST /parlay/price: the index of the leg refused (0-based), and the most legs a slip may have. */
  leg?: number;
  max_legs?: number;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

export const badRequest = (message: string, extras?: ErrorExtras) => new ApiError('invalid_request', message, extras);
export const notFound = (message: string) => new ApiError('not_found', message);
export const tierRestricted = (message: string, requiredTier: string, extras: ErrorExtras = {}) =>
  new ApiError('tier_restricted', message, { required_tier: requiredTier, ...extras });
