import 'reflect-metadata';
import { randomFillSync } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppModule, type AppModuleOptions } from './app.module.js';
import { ApiError } from './common/http/api-error.js';
import { MAX_OBJECT_KEYS, parseJsonBody, type JsonLimits } from './common/http/body-limits.js';
import { clientErrorHandler } from './common/http/client-error.js';
import { cachedHtmlCsp, STRICT_HTML_CSP } from './common/http/html-csp.js';
import { registerConditionalGet } from './common/http/conditional-get.js';
import { corsOptions } from './common/http/cors.js';
import type { EarlyServer } from './common/http/early-server.js';
import { ApiExceptionFilter, errorBody } from './common/http/exception.filter.js';
import { RouteIndex } from './common/http/route-index.js';
import { registerLimitClampHeader } from './common/http/limit-clamp.js';
import { registerTextParams } from './common/http/text-params.js';
import { rootPathRewrite } from './common/http/root-paths.js';
import { createValidationPipe } from './common/http/validation.js';
import { JsonLogger } from './common/logging/json-logger.js';
import { Serving } from './common/serving.js';
import { redactUrl } from './common/logging/redact.js';
import type { AppConfig } from './config/env.js';
import { ApiKeysService } from './modules/accounts/api-keys.service.js';
import { OPTIONAL_BODY_ROUTES } from './modules/accounts/account.controller.js';
import { FAST_ROUTES, OddsFastPath, type FastRoute } from './modules/odds/odds-fast-path.js';
import { docsAssetAllowed, setupOpenApi } from './openapi.js';
import { registerDashboard } from './dashboard/dashboard.js';
import { MetricsService } from './common/metrics/metrics.service.js';

export const API_PREFIX = 'api/v1';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The operator routes (X-Admin-Token): bulk imports post thousands of quotes, so the key count does not apply. */
const OPERATOR_ROUTES = `/${API_PREFIX}/admin/`;
/** Random bytes for request ids, drawn 6 at a time from a pool refilled 1,024 ids at once. */
const idPool = Buffer.allocUnsafe(6 * 1024);
let idAt = idPool.length;

export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers['x-request-id'];
  const v = Array.isArray(incoming) ? incoming[0] : incoming;
  if (v && REQUEST_ID.test(v)) return v;
  if (idAt + 6 > idPool.length) {
    randomFillSync(idPool);
    idAt = 0;
  }
  idAt += 6;
  return `req_${idPool.toString('hex', idAt - 6, idAt)}`;
}

const HELMET_OPTIONS = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false } as const;

/**
 * The headers @fastify/helmet writes with HELMET_OPTIONS, read once from a throwaway instance: with the content
 * security policy off they are the same on every response, so they are set from this list rather than by
 * building helmet's middleware chain on every request (what the plugin does).
 */
async function helmetHeaders(): Promise<Array<[string, string]>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', (_req, reply) => reply.send(''));
  const res = await probe.inject({ method: 'GET', url: '/' });
  const bare = Fastify({ logger: false }).get('/', (_req, reply) => reply.send(''));
  const plain = await bare.inject({ method: 'GET', url: '/' });
  await Promise.all([probe.close(), bare.close()]);
  // The names as helmet spells them (getRawHeaderNames: Node's OutgoingMessage, untyped on ServerResponse).
  const raw = res.raw.res as typeof res.raw.res & { getRawHeaderNames(): string[] };
  return raw
    .getRawHeaderNames()
    .filter((name) => plain.headers[name.toLowerCase()] === undefined)
    .map((name) => [name, String(raw.getHeader(name))]);
}

/** Services the HTTP hooks use, known once the application exists (the hooks are registered before it). */
interface LateServices {
  metrics?: MetricsService;
  fastPath?: OddsFastPath;
}

/**
 * Builds the whole application (used by main.ts and by the end-to-end tests): Fastify, the /api/v1 prefix,
 * request ids, bounded JSON bodies, validation, the error filter (for every error, the HTTP parser's included),
 * CORS when configured, OpenAPI at /docs.
 */
export async function createApp(
  config: AppConfig,
  options: AppModuleOptions = {},
  http: {
    serverFactory?: EarlyServer['factory'];
    /** What waits for the application to serve (Serving: the providers) waits for main.ts (once the port answers), not for the application's start. */
    holdProviders?: boolean;
  } = {},
): Promise<NestFastifyApplication> {
  const routes = new RouteIndex();
  const validation = createValidationPipe();
  const late: LateServices = {};
  const adapter = fastifyAdapter(config, http.serverFactory);
  const fastify = adapter.getInstance();
  indexRoutes(fastify, routes, validation, late, config.docsUrl);
  registerLimitClampHeader(fastify);
  await addSecurityHeaders(fastify);
  registerConditionalGet(fastify, API_PREFIX);
  addHtmlCsp(fastify);
  registerTextParams(fastify, config.docsUrl);
  measureAndLogResponses(fastify, config, late);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    logger: new JsonLogger(config.logLevel),
    abortOnError: false,
  });
  acceptJsonBodiesOnly(app, fastify, config);
  await registerWebSockets(app);
  late.metrics = app.get(MetricsService);
  late.fastPath = app.get(OddsFastPath);
  applyApiPolicies(app, config, validation, routes);
  setupOpenApi(app, config);
  // The live dashboard at / and /dashboard/ (the bundle `npm run build` writes to dist/web).
  await registerDashboard(fastify, config.docsUrl);
  await app.init();
  await app.get(ApiKeysService).bootstrap();
  if (!http.holdProviders) app.get(Serving).begin();
  return app;
}

/** Fastify as the service runs it: body limit, proxies, request ids, routing options, the API's error bodies. */
function fastifyAdapter(config: AppConfig, serverFactory: EarlyServer['factory'] | undefined): FastifyAdapter {
  return new FastifyAdapter({
    // main.ts opens the port before loading the application: Fastify then runs on that server.
    ...(serverFactory ? { serverFactory } : {}),
    bodyLimit: config.bodyLimitBytes,
    // A hop count as Fastify implements it: believe the nearest n proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (n: number) => (_addr: string, hop: number) =>
              hop < n
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestId(req),
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    rewriteUrl: rootPathRewrite(API_PREFIX),
    // Requests Node's HTTP parser refuses (headers over the size limit, Content-Length with Transfer-Encoding,
    // invalid characters) get the API's error body and a closed connection.
    clientErrorHandler: clientErrorHandler(config.docsUrl, maxHeaderSize),
    // Errors Fastify raises before any route runs (malformed URL, a path segment too long) get the API's body too.
    frameworkErrors: (error: { code?: string }, _req: unknown, reply: FastifyReply) => {
      const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long (at most 500 characters)' : 'Malformed URL';
      void reply
        .code(400)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('invalid_request', message, config.docsUrl));
    },
  });
}

/**
 * Every route into the route index (for the standing tests that walk every route); the odds fast path in front
 * of GET /odds and /odds/best; only the Swagger UI files the page loads under /docs.
 */
function indexRoutes(
  fastify: FastifyInstance,
  routes: RouteIndex,
  validation: ReturnType<typeof createValidationPipe>,
  late: LateServices,
  docsUrl: string,
): void {
  fastify.decorate('routeIndex', routes);
  fastify.addHook('onRoute', (r) => {
    routes.add(r.method, r.url);
    // GET /odds and /odds/best: answered from memory before the Nest pipeline when it can be (OddsFastPath).
    const fastRoute = r.method === 'GET' && r.url.startsWith(`/${API_PREFIX}/`) ? r.url.slice(API_PREFIX.length + 2) : '';
    if (FAST_ROUTES.has(fastRoute)) {
      const own = r.preHandler ? (Array.isArray(r.preHandler) ? r.preHandler : [r.preHandler]) : [];
      r.preHandler = [
        ...own,
        async (req: FastifyRequest, reply: FastifyReply) => {
          if (late.fastPath && (await late.fastPath.serve(fastRoute as FastRoute, validation, req, reply))) return reply;
        },
      ];
    }
    // The Swagger UI's static files: only those the page loads, not the rest of swagger-ui-dist.
    if (r.url === '/docs/*') {
      const own = r.onRequest ? (Array.isArray(r.onRequest) ? r.onRequest : [r.onRequest]) : [];
      r.onRequest = [
        async (req: FastifyRequest, reply: FastifyReply) => {
          if (!docsAssetAllowed(req.url)) {
            return reply
              .code(404)
              .header('Content-Type', 'application/json; charset=utf-8')
              .send(errorBody('not_found', 'Not found', docsUrl));
          }
        },
        ...own,
      ];
    }
  });
}

/** The request id and helmet's security headers on every response. */
async function addSecurityHeaders(fastify: FastifyInstance): Promise<void> {
  const securityHeaders = await helmetHeaders();
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('X-Request-Id', req.id);
    // As @fastify/helmet sets them: on the raw response, so hijacked replies (streams) carry them too.
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });
}

/**
 * Every HTML answer carries a Content-Security-Policy: the page's own, when it set one (the dashboard), else one
 * built from the page as sent (its inline blocks allowed by hash: Swagger UI, the error codes page).
 */
function addHtmlCsp(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^text\/html\b/i.test(type) && !reply.hasHeader('content-security-policy')) {
      const html = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      void reply.header('Content-Security-Policy', html === null ? STRICT_HTML_CSP : cachedHtmlCsp(html));
    }
    done(null, payload);
  });
}

/** Each response's latency into the metrics registry and, at info level, a log line (the key's id, never the key). */
function measureAndLogResponses(fastify: FastifyInstance, config: AppConfig, late: LateServices): void {
  const httpLog = new Logger('http');
  fastify.addHook('onResponse', (req: FastifyRequest, reply, done) => {
    late.metrics?.httpDuration.observe(
      { method: req.method, route: req.routeOptions?.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (config.logLevel === 'debug' || config.logLevel === 'info') {
      httpLog.log({
        msg: 'request',
        req_id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        key_id: req.account?.keyId,
      });
    }
    done();
  });
}

/**
 * Request bodies are JSON only, measured on the raw text (depth, keys) before they are parsed, transformed or
 * validated; forms and plain text are 415 unsupported_media_type.
 */
function acceptJsonBodiesOnly(app: NestFastifyApplication, fastify: FastifyInstance, config: AppConfig): void {
  const jsonLimits: JsonLimits = { maxDepth: config.bodyMaxDepth, maxKeys: config.bodyMaxKeys, maxObjectKeys: MAX_OBJECT_KEYS };
  const operatorLimits: JsonLimits = { ...jsonLimits, maxKeys: Number.POSITIVE_INFINITY };
  app.useBodyParser('application/json', { bodyLimit: config.bodyLimitBytes }, (req, body, done) => {
    try {
      const route = req.routeOptions?.url;
      // The SDKs send Content-Type: application/json on every request, also on a rotate or delete with no body.
      if (body.length === 0 && route && OPTIONAL_BODY_ROUTES.has(route)) return done(null, undefined);
      done(null, parseJsonBody(body.toString('utf8'), route?.startsWith(OPERATOR_ROUTES) ? operatorLimits : jsonLimits));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit: config.bodyLimitBytes }, (_req, _body, done) => {
    done(new ApiError('unsupported_media_type', 'Unsupported Content-Type; request bodies must be application/json'), undefined);
  });
  fastify.removeContentTypeParser('text/plain');
}

/**
 * WebSockets (64 KiB frames). A client's protocol error (invalid UTF-8: 1007, a frame over maxPayload: 1009) is
 * answered by ws with the close code and is the client's fault: logged at debug level, never as a server error.
 * The gateway's own handler catches everything it raises, so nothing else arrives here.
 */
async function registerWebSockets(app: NestFastifyApplication): Promise<void> {
  const wsLog = new Logger('ws');
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024 },
    errorHandler: (error: Error, socket: { terminate(): void }) => {
      wsLog.debug({ msg: 'websocket closed on a protocol error', error: error.message });
      socket.terminate();
    },
  });
}

/** The /api/v1 prefix (not on /metrics), validation, the API's error filter, CORS when CORS_ORIGINS names origins. */
function applyApiPolicies(
  app: NestFastifyApplication,
  config: AppConfig,
  validation: ReturnType<typeof createValidationPipe>,
  routes: RouteIndex,
): void {
  app.setGlobalPrefix(API_PREFIX, { exclude: ['metrics'] });
  app.useGlobalPipes(validation);
  app.useGlobalFilters(new ApiExceptionFilter(config.docsUrl, routes));
  if (config.corsOrigins !== false) app.enableCors(corsOptions(config.corsOrigins));
}
