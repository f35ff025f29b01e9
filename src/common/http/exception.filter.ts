import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, STATUS_OF, type ErrorCode, type ErrorExtras } from './api-error.js';
import type { RouteIndex } from './route-index.js';
import { rateLimitOf, writeRateLimitHeaders } from '../rate-limit/rate-limit-headers.js';
import { dict } from '../../domain/dict.js';

const TOP_LEVEL: Array<keyof ErrorExtras> = ['required_tier', 'retry_after', 'max_books', 'max_offset', 'correct_endpoint', 'addon'];

export function errorBody(code: ErrorCode, message: string, docsUrl: string, extras: ErrorExtras = {}) {
  const top: Record<string, unknown> = dict();
  for (const k of TOP_LEVEL) if (extras[k] !== undefined) top[k] = extras[k];
  return { error: { code, message, docs: `${docsUrl}#error-${code}`, ...extras }, ...top };
}

/**
 * Errors that are not ApiErrors (Fastify's, Nest's, a plugin's) by status. A 403 from anything but the access
 * policy (e.g. a static-file plugin refusing a path) is answered 404: in this API 403 means tier_restricted.
 */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'not_found',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'header_too_large',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/**
 * Fastify's own client errors (body too large, wrong content type, a bad Content-Length) arrive as plain errors
 * with a statusCode, or wrapped by Nest's adapter in an HttpException whose cause is the Fastify error.
 */
function fastifyClientError(err: unknown): ApiError | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (typeof e.statusCode !== 'number' || e.statusCode < 400 || e.statusCode >= 500) return null;
  const code = CODE_BY_STATUS[e.statusCode] ?? 'invalid_request';
  const message =
    e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? 'Request body is too large'
      : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Unsupported Content-Type; request bodies must be application/json'
        : e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'Body is empty but Content-Type is application/json'
          : e.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
            ? 'Content-Length does not match the body'
            : e.code?.startsWith('FST_ERR_CTP') || /JSON/i.test(e.message ?? '')
              ? 'Malformed JSON body'
              : code === 'not_found'
                ? 'Not found'
                : 'Bad request';
  return new ApiError(code, message);
}

/** The one place errors become HTTP: `{"error":{"code","message","docs"}}`, no stack traces, no internals. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  constructor(
    private readonly docsUrl: string,
    private readonly routes?: RouteIndex,
  ) {}

  toApiError(exception: unknown, req?: FastifyRequest): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof ThrottlerException) return new ApiError('rate_limited', 'Rate limit exceeded; retry after the window resets');
    if (exception instanceof HttpException) {
      const fromFastify = fastifyClientError(exception.cause);
      if (fromFastify) return fromFastify;
      const status = exception.getStatus();
      if (status === 404 && req && this.routes) {
        const allowed = this.routes.allowed(req.url);
        if (allowed && !allowed.includes(req.method as never)) {
          return new ApiError(
            'method_not_allowed',
            `Method ${req.method} is not allowed on ${req.url.split('?')[0]}; allowed: ${allowed.join(', ')}`,
          );
        }
      }
      if (status === 404 || status === 403)
        return new ApiError('not_found', `No such endpoint: ${req?.method ?? ''} ${(req?.url ?? '').split('?')[0]}`.trim());
      const code = CODE_BY_STATUS[status];
      if (code) {
        const resp = exception.getResponse();
        const msg = typeof resp === 'string' ? resp : (resp as { message?: unknown }).message;
        return new ApiError(code, Array.isArray(msg) ? String(msg[0]) : typeof msg === 'string' ? msg : exception.message);
      }
    }
    const client = fastifyClientError(exception);
    if (client) return client;
    return new ApiError('internal_error', 'Internal server error');
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const err = this.toApiError(exception, req);
    if (err.code === 'internal_error') {
      this.logger.error({ msg: 'unhandled error', req_id: req?.id, err: exception instanceof Error ? exception.stack : String(exception) });
    }
    if (err.code === 'method_not_allowed' && this.routes && req) {
      const allowed = this.routes.allowed(req.url);
      if (allowed) void reply.header('Allow', allowed.join(', '));
    }
    if (reply.sent) return;
    // A request a guard refused never reached the rate-limit headers interceptor: the budget it counted still shows.
    const budget = rateLimitOf(req);
    if (budget) writeRateLimitHeaders(reply, budget);
    if (err.extras.retry_after !== undefined) void reply.header('Retry-After', String(err.extras.retry_after));
    void reply
      .status(STATUS_OF[err.code])
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(errorBody(err.code, err.message, this.docsUrl, err.extras));
  }
}
