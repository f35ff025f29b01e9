import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { textProblem } from '../../domain/text.js';
import { errorBody } from './exception.filter.js';

/** Longest value of one query parameter (a list of ids can be long; a path segment is limited to 500 by the router). */
const MAX_PARAM_LENGTH = 10_000;
/** Longest string in a request body (bodies are limited in bytes already; this only bounds the message). */
const MAX_BODY_STRING = 1_000_000;
/** How deep a body is walked (the DTOs nest two or three levels; MCP arguments a few more). */
const MAX_DEPTH = 16;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PARAM_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a decoded client value (a parameter's name or value, a body field's name or string value, a WebSocket
 * message's string) cannot be taken, or null: the store's text rule (src/domain/text.ts: NUL, bytes that were not
 * UTF-8, lone surrogates) and no control character at all (C0, DEL, C1: a parameter has no use for a line break or
 * a tab either). Pure.
 */
export function paramProblem(s: string, max = MAX_PARAM_LENGTH): string | null {
  const p = textProblem(s, max);
  if (p) return p;
  const ctl = PARAM_CONTROL.exec(s);
  return ctl ? `contains the control character U+${ctl[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** The first problem in a query or path parameter object: the parameter's name and what is wrong. */
function firstProblem(values: unknown, kind: 'query' | 'path'): { name: string; problem: string } | null {
  if (!values || typeof values !== 'object') return null;
  for (const [name, raw] of Object.entries(values)) {
    const namep = paramProblem(name);
    if (namep) return { name: name.slice(0, 64), problem: `the ${kind} parameter name ${namep}` };
    for (const v of Array.isArray(raw) ? (raw as unknown[]) : [raw]) {
      if (typeof v !== 'string') continue;
      const p = paramProblem(v);
      if (p) return { name, problem: p };
    }
  }
  return null;
}

/**
 * The first string (or key) anywhere in a JSON value that breaks the rule: its path (`legs[0].sportsbook`) and the
 * problem; null when every string is clean. `skip`: paths whose contents are checked elsewhere, item by item.
 */
export function firstValueProblem(
  value: unknown,
  path = '',
  skip: ReadonlySet<string> = new Set(),
  depth = 0,
): { name: string; problem: string } | null {
  if (skip.has(path)) return null;
  if (typeof value === 'string') {
    const p = paramProblem(value, MAX_BODY_STRING);
    return p ? { name: path || 'body', problem: p } : null;
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = firstValueProblem(value[i], `${path}[${i}]`, skip, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const kp = paramProblem(k);
    if (kp) return { name: (path ? `${path}.${k}` : k).slice(0, 64), problem: `the field name ${kp}` };
    const p = firstValueProblem(v, path ? `${path}.${k}` : k, skip, depth + 1);
    if (p) return p;
  }
  return null;
}

/**
 * Route config (`@RouteConfig({ [PER_ITEM_TEXT]: [...] })`): body paths whose strings are checked item by item by
 * the route itself (the admin ingest's quotes, event updates and splits: one refused item never refuses its
 * batch; MCP tool arguments: checked by the route each tool calls, answered as a tool error).
 */
export const PER_ITEM_TEXT = 'perItemText';

function skipped(req: FastifyRequest): ReadonlySet<string> {
  const list = (req.routeOptions?.config as unknown as Record<string, unknown> | undefined)?.[PER_ITEM_TEXT];
  return new Set(Array.isArray(list) ? (list as string[]) : []);
}

/**
 * One text rule for every path and query parameter of every route, streams and the WebSocket upgrade included,
 * checked on the decoded values before any handler, guard or fast path, and for every string and field name of
 * every JSON body once it is parsed: a value that breaks it is 400 invalid_request naming it.
 */
export function registerTextParams(fastify: FastifyInstance, docsUrl: string): void {
  const refuse = (reply: FastifyReply, bad: { name: string; problem: string }) =>
    reply
      .code(400)
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(errorBody('invalid_request', `Invalid parameter "${bad.name}": ${bad.problem}`, docsUrl, { parameter: bad.name }));
  fastify.addHook('onRequest', (req, reply, done) => {
    const bad = firstProblem(req.params, 'path') ?? firstProblem(req.query, 'query');
    if (!bad) return done();
    // A refused WebSocket upgrade: the socket left the HTTP server's care at the upgrade, so it is ended here once
    // the answer is out (else it stays open until the client goes, and holds the server's close).
    if (req.headers.upgrade) reply.raw.once('finish', () => req.raw.socket.end());
    void refuse(reply, bad);
  });
  fastify.addHook('preValidation', (req, reply, done) => {
    const bad = req.body === undefined ? null : firstValueProblem(req.body, '', skipped(req));
    if (!bad) return done();
    void refuse(reply, bad);
  });
}
