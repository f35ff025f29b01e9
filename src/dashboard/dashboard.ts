import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../common/http/exception.filter.js';
import { projectRoot } from '../config/paths.js';

/** Where `npm run build` (scripts/build-web.mjs) writes the dashboard bundle. */
export function dashboardDir(): string {
  return join(projectRoot(), 'dist', 'web');
}

/**
 * The page's Content-Security-Policy: everything from this origin only (the script, the stylesheet, the API and
 * the stream); no inline script or style, no framing.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The live dashboard: the bundle in dist/web served at /dashboard/ (Fastify static); `/` and `/dashboard`
 * redirect there with a relative Location so the page works behind a proxy. Without a bundle (no build run)
 * those routes answer 503 saying how to build it.
 */
export async function registerDashboard(fastify: FastifyInstance, docsUrl: string, dir = dashboardDir()): Promise<void> {
  const built = existsSync(join(dir, 'index.html'));
  const page = built ? readFileSync(join(dir, 'index.html')) : null;
  const toPage = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!built) {
      return reply
        .code(503)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('service_unavailable', 'The dashboard is not built: run `npm run build` (it writes dist/web)', docsUrl));
    }
    // ignoreTrailingSlash maps /dashboard and /dashboard/ to one route: only the bare forms are redirected.
    const path = req.url.split('?')[0]!;
    if (path === '/dashboard/')
      return reply
        .header('Content-Security-Policy', DASHBOARD_CSP)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(page);
    return reply.redirect('dashboard/', 302);
  };
  fastify.get('/', toPage);
  fastify.get('/dashboard', toPage);
  if (!built) return;
  await fastify.register(fastifyStatic, {
    root: dir,
    prefix: '/dashboard/',
    decorateReply: false,
    index: false,
    wildcard: true,
    setHeaders: (res) => {
      void res.header('Content-Security-Policy', DASHBOARD_CSP);
      void res.header('Cache-Control', 'no-cache');
    },
  });
}
