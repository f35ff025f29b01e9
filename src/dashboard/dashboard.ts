import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../common/http/exception.filter.js';
import { projectRoot } from '../config/paths.js';
import { dict } from '../domain/dict.js';

/** Where `npm run build` (scripts/build-web.mjs) writes the dashboard bundle. */
export function dashboardDir(): string {
  return join(projectRoot(), 'dist', 'web');
}

/**
 * The page's Content-Security-Policy: everything from this origin only (the script, the stylesheet, the API and
 * the stream); no inline script or style, no framing.
 */
const CONTENT_TYPES: Record<string, string> = dict({
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
});

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
 * The live dashboard: the bundle in dist/web served at /dashboard/ (its few files read into memory at start: a
 * route of its own, no static plugin, so the API's 404 body answers any other name); `/` and `/dashboard`
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
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name !== 'index.html' && statSync(p).isFile())
      files.set(name, { body: readFileSync(p), type: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream' });
  }
  fastify.get('/dashboard/:file', async (req: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
    const f = files.get(req.params.file);
    if (!f) {
      return reply
        .code(404)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('not_found', `No such file: ${req.url.split('?')[0]}`, docsUrl));
    }
    return reply.header('Content-Security-Policy', DASHBOARD_CSP).header('Cache-Control', 'no-cache').type(f.type).send(f.body);
  });
}
