import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule, type AppModuleOptions } from './app.module.js';
import { ApiExceptionFilter, errorBody } from './common/http/exception.filter.js';
import { RouteIndex } from './common/http/route-index.js';
import { createValidationPipe } from './common/http/validation.js';
import { JsonLogger, redact } from './common/logging/json-logger.js';
import type { AppConfig } from './config/env.js';
import { ApiKeysService } from './modules/accounts/api-keys.service.js';
import { MetricsService } from './modules/metrics/metrics.service.js';
import { setupOpenApi } from './openapi.js';

export const API_PREFIX = 'api/v1';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers['x-request-id'];
  const v = Array.isArray(incoming) ? incoming[0] : incoming;
  return v && REQUEST_ID.test(v) ? v : `req_${randomBytes(6).toString('hex')}`;
}

/**
 * Builds the whole application (used by main.ts and by the end-to-end tests): Fastify, the /api/v1 prefix,
 * request ids, validation, the error filter, OpenAPI at /docs.
 */
export async function createApp(config: AppConfig, options: AppModuleOptions = {}): Promise<NestFastifyApplication> {
  const routes = new RouteIndex();
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // A hop count as Fastify implements it: believe the nearest n proxies.
    trustProxy: typeof config.trustProxy === 'number' ? ((n: number) => (_addr: string, hop: number) => hop < n)(config.trustProxy) : config.trustProxy,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestId(req),
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Errors Fastify raises before any route runs (malformed URL, a path segment too long) get the API's body too.
    frameworkErrors: (error: { code?: string }, _req: unknown, reply: FastifyReply) => {
      const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long (at most 500 characters)' : 'Malformed URL';
      void reply.code(400).header('Content-Type', 'application/json; charset=utf-8').send(errorBody('invalid_request', message, config.docsUrl));
    },
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRoute', (r) => routes.add(r.method, r.url));
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('X-Request-Id', req.id);
    done();
  });
  const httpLog = new Logger('http');
  let metrics: MetricsService | undefined;
  fastify.addHook('onResponse', (req: FastifyRequest, reply, done) => {
    metrics?.httpDuration.observe({ method: req.method, route: req.routeOptions?.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (config.logLevel === 'debug' || config.logLevel === 'info') {
      httpLog.log({
        msg: 'request',
        req_id: req.id,
        method: req.method,
        url: redact(req.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        key_id: req.account?.keyId,
      });
    }
    done();
  });

  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    logger: new JsonLogger(config.logLevel),
    abortOnError: false,
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  metrics = app.get(MetricsService);
  await app.register(helmet, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  app.setGlobalPrefix(API_PREFIX, { exclude: ['metrics'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(config.docsUrl, routes));
  if (config.corsOrigins !== false) app.enableCors({ origin: config.corsOrigins, exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Data-Delay', 'X-Request-Id', 'Retry-After'] });
  setupOpenApi(app, config);
  await app.init();
  await app.get(ApiKeysService).bootstrap();
  return app;
}
