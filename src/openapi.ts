import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AccessPolicy } from './common/auth/access-policy.js';
import { MAX_OBJECT_KEYS } from './common/http/body-limits.js';
import type { AppConfig } from './config/env.js';
import { DetectionEngine } from './modules/detection/detection.engine.js';

const description = (c: AppConfig, tierTable: string, typesTable: string) => `
Odds from many sportsbooks matched into events, with best-price, comparison, delta and batch reads, public betting
splits, and opportunity detection (+EV against a devigged sharp line, arbitrage, middles, low-hold), over REST and a
live stream (\`/api/v1/stream\`, Server-Sent Events; WebSocket at \`/api/v1/ws\`).

## Authentication
Send your key as \`X-API-Key: <key>\` (recommended), \`Authorization: Bearer <key>\`, or \`?api_key=<key>\` (for
EventSource clients). \`/health\` needs no key; \`/sports\` works without one at 10 requests per minute per IP.

Failed authentication is throttled per client address: after ${c.authFailuresPerMinute} wrong keys or admin tokens in a minute
(\`AUTH_FAILURES_PER_MINUTE\`), every request from that address, even with a correct key, gets 429
\`rate_limited\` with \`Retry-After\` until the minute is over. A missing key is not counted.

## Request limits
Bodies are JSON (\`Content-Type: application/json\`; anything else is 415), at most ${c.bodyLimitBytes} bytes (413), nested at
most ${c.bodyMaxDepth} levels deep, with at most ${c.bodyMaxKeys} keys and array items in all (operator routes under
\`/api/v1/admin\`: no count) and ${MAX_OBJECT_KEYS} keys in any one object, no key twice in
one object, and no \`__proto__\` key or \`constructor.prototype\` (400 \`invalid_request\` naming the limit).
Query parameters must be declared by the endpoint (400 naming an unknown one); a single-valued parameter given
twice is 400. \`team\` and \`q\` must contain a letter or a digit. Request headers and URL: 16 KB in all (431).

## Tiers
${tierTable}

**Books.** Which books a tier may name comes from each book's \`requires_tier\` (23 books are open to free, hobby and
pro; the 3 sharp-tier books only to sharp and enterprise). How many distinct books one request may cover comes from
the tier's max books. Without \`sportsbook\` a request covers the tier's default set: free DraftKings + FanDuel; hobby
and pro the 5 / 15 most popular open books; sharp and enterprise every book. Naming a book above your tier, or more
books than your maximum, is 403 \`tier_restricted\` saying which rule and the limit.

**Delay.** The free tier sees the board as it stood 60 seconds ago (\`X-Data-Delay: 60\`).

## Opportunity types
Each type has its list under \`/api/v1/opportunities\`, its tier feature and its names on the stream:
${typesTable}

## Responses
Lists: \`{"success": true, "data": [...], "pagination": {"limit","offset","has_more","next_offset"}, "meta": {"count","total", ...}}\`.
Rate-limit headers on every authenticated response: \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`,
\`X-RateLimit-Reset\` (Unix seconds), \`X-Data-Delay\` (seconds), \`X-Request-Id\`.

## Errors
Every error is \`{"error": {"code", "message", "docs"}}\`; fields such as \`required_tier\`, \`retry_after\`,
\`max_books\`, \`max_offset\` are also copied to the top level.

| HTTP | code | when |
|---|---|---|
| 400 | invalid_request | a parameter is missing, of the wrong type, out of range, or unknown (the message names it) |
| 400 | offset_too_large | offset above the endpoint's maximum (\`max_offset\`) |
| 401 | unauthorized | missing, invalid or revoked key |
| 403 | tier_restricted | the tier lacks the feature or the book (\`required_tier\`) |
| 403 | feature_disabled | the tier has the feature but it is switched off for this account (\`feature\`: the per-account arbitrage flag) |
| 404 | not_found | unknown id or path (also any file under /docs the UI does not need) |
| 405 | method_not_allowed | known path, wrong method |
| 408 | request_timeout | the request did not arrive in time |
| 413 | payload_too_large | request body over the limit |
| 415 | unsupported_media_type | a request body that is not \`application/json\` |
| 429 | rate_limited | over the per-minute budget, or too many failed authentications from the address (\`Retry-After\`, \`retry_after\` in seconds) |
| 429 | too_many_streams | more open streams than the tier allows |
| 431 | header_too_large | request headers (the URL included) over 16 KB |
| 500 | internal_error | a fault of ours (no details are exposed; quote X-Request-Id) |
| 503 | service_unavailable | a dependency is down |
`;

export function buildOpenApi(app: NestFastifyApplication, config: AppConfig): OpenAPIObject {
  const doc = new DocumentBuilder()
    .setTitle('Odds Service API')
    .setDescription(description(config, app.get(AccessPolicy).tierTableMarkdown(), app.get(DetectionEngine).typesMarkdown()))
    .setVersion(config.version)
    .addServer('/', 'This server')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Recommended for server-side clients' }, 'ApiKeyHeader')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' }, 'BearerAuth')
    .addApiKey({ type: 'apiKey', in: 'query', name: 'api_key', description: 'For EventSource/SSE clients that cannot set headers' }, 'ApiKeyQuery')
    .build();
  return SwaggerModule.createDocument(app, doc);
}

/**
 * The files of swagger-ui-dist that the Swagger UI page loads (see @nestjs/swagger's HTML template); the
 * package's other files (its package.json, README, source maps, licences) are not served.
 */
export const SWAGGER_UI_ASSETS: ReadonlySet<string> = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
]);

/** Whether a request to the static route under /docs/ asks for one of the allowed files (exact name, no path). */
export function docsAssetAllowed(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/docs/') && SWAGGER_UI_ASSETS.has(path.slice('/docs/'.length));
}

/** Swagger UI at /docs, the document at /docs-json. */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  SwaggerModule.setup('docs', app, () => buildOpenApi(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'Odds Service API',
    swaggerOptions: { persistAuthorization: true },
  });
}
