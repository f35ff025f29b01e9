import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LIMIT_CLAMPED_HEADER } from './limit-clamp.js';

/** CORS options as Nest's Fastify adapter takes them (the @fastify/cors copy Nest itself depends on). */
type FastifyCorsOptions = NonNullable<Parameters<NestFastifyApplication['enableCors']>[0]>;

/** Every method a route of the API answers (GET and HEAD reads, POST, DELETE /account/keys/{id}). */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'DELETE'];

/** What a browser page may send: the key (either way), JSON bodies, request ids, stream resumption, revalidation, MCP. */
export const CORS_HEADERS = [
  'X-API-Key',
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  'Last-Event-ID',
  'Cache-Control',
  'If-None-Match',
  'Mcp-Protocol-Version',
];

/** What a browser page may read beyond the CORS-safelisted response headers. */
export const CORS_EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Data-Delay',
  'X-Tier',
  'X-Request-Id',
  'Retry-After',
  'ETag',
  'X-Cache-Status',
  'X-Client-Profile',
  LIMIT_CLAMPED_HEADER,
];

/**
 * CORS when CORS_ORIGINS names origins (or '*'): exact origins, never reflected; no credentials; the admin token
 * is not among the allowed headers, so no browser page can send it.
 */
export function corsOptions(origins: string[] | '*'): FastifyCorsOptions {
  return {
    origin: origins,
    credentials: false,
    methods: CORS_METHODS,
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: CORS_EXPOSED,
    maxAge: 600,
    strictPreflight: false,
  };
}
