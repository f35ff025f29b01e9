import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AccessPolicy } from './common/auth/access-policy.js';
import { MAX_OBJECT_KEYS } from './common/http/body-limits.js';
import type { AppConfig } from './config/env.js';
import { SECURITY_SCHEMES } from './common/auth/decorators.js';
import { errorPageHtml, errorTableMarkdown } from './common/http/error-docs.js';
import { DetectionEngine } from './modules/detection/detection.engine.js';

/** The page the `docs` link of every error body points to (the default DOCS_URL), with an anchor per code. */
export const ERRORS_PAGE = '/docs/errors';

const description = (c: AppConfig, tierTable: string, typesTable: string) => `
Odds from many sportsbooks matched into events, with best-price, comparison, delta and batch reads, public betting
splits, and opportunity detection (+EV against a devigged sharp line, arbitrage, middles, low-hold), over REST and a
live stream (\`/api/v1/stream\`, Server-Sent Events; WebSocket at \`/api/v1/ws\`, speaking the messages of the public AsyncAPI
document, or with \`client_profile=spec\` the SSE stream's payloads).

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
\`max_books\`, \`max_offset\` are also copied to the top level. \`docs\` links to the code's row on [${ERRORS_PAGE}](${ERRORS_PAGE}).

${errorTableMarkdown()}

## Trying it here
Click **Authorize** and paste a key in \`ApiKeyHeader\` (\`AdminToken\` for the operator routes), then "Try it out". Filters
start empty: each parameter's description gives an example value to type in.
`;

export function buildOpenApi(app: NestFastifyApplication, config: AppConfig): OpenAPIObject {
  const doc = new DocumentBuilder()
    .setTitle('Odds Service API')
    .setDescription(description(config, app.get(AccessPolicy).tierTableMarkdown(), app.get(DetectionEngine).typesMarkdown()))
    .setVersion(config.version)
    .addServer('/', 'This server')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Recommended for server-side clients' },
      SECURITY_SCHEMES.keyHeader,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' }, SECURITY_SCHEMES.bearer)
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'api_key', description: 'For EventSource/SSE clients that cannot set headers' },
      SECURITY_SCHEMES.keyQuery,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Admin-Token',
        description: 'Operator token (ADMIN_TOKEN, or the one in DATA_DIR/server.json) for /api/v1/admin and /metrics',
      },
      SECURITY_SCHEMES.admin,
    )
    .build();
  return finishDocument(SwaggerModule.createDocument(app, doc));
}

type Schema = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * Two passes over the generated document:
 * - a parameter's example moves into its description, so Swagger UI's "Try it out" starts with empty filters
 *   (a pre-filled `team=celtics` or path id would filter the answer down to nothing);
 * - every object schema a 2xx response reaches is closed (`additionalProperties: false`) unless it says
 *   otherwise: a response carries exactly the fields its schema declares, so a client generated from the
 *   document, or a validator, sees a renamed or undeclared field.
 */
export function finishDocument(doc: OpenAPIObject): OpenAPIObject {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const closed = new Set<Schema>();
  const close = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(close);
    if (!node || typeof node !== 'object') return;
    const s = node as Schema;
    if (closed.has(s)) return;
    closed.add(s);
    if (typeof s.$ref === 'string') return close(schemas[s.$ref.split('/').pop()!]);
    if (s.properties && s.additionalProperties === undefined) s.additionalProperties = false;
    for (const v of Object.values(s.properties ?? {})) close(v);
    for (const k of ['items', 'allOf', 'anyOf', 'oneOf', 'additionalProperties'] as const) close(s[k]);
  };
  for (const item of Object.values(doc.paths)) {
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (!op) continue;
      for (const p of (op.parameters ?? []) as unknown as Schema[]) {
        const schema = p.schema as Schema | undefined;
        const example = p.example ?? schema?.example;
        delete p.example;
        delete p.examples;
        if (schema) delete schema.example;
        if (example !== undefined) {
          const text = Array.isArray(example) ? example.join(',') : String(example);
          p.description = `${p.description ? `${String(p.description).replace(/\.?$/, '.')} ` : ''}Example: \`${text}\``;
        }
      }
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const c of Object.values((r as { content?: Record<string, { schema?: Schema }> }).content ?? {})) close(c.schema);
      }
    }
  }
  return doc;
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

/** Swagger UI at /docs, the document at /docs-json, the error codes at /docs/errors. */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  const errorsPage = errorPageHtml();
  app
    .getHttpAdapter()
    .getInstance()
    .get(ERRORS_PAGE, (_req, reply) =>
      reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(errorsPage),
    );
  SwaggerModule.setup('docs', app, () => buildOpenApi(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'Odds Service API',
    swaggerOptions: { persistAuthorization: true },
  });
}
