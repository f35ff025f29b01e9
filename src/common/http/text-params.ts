import type { FastifyInstance } from 'fastify';
import { textProblem } from '../../domain/text.js';
import { errorBody } from './exception.filter.js';

/** Longest value of one query parameter (a list of ids can be long; a path segment is limited to 500 by the router). */
const MAX_PARAM_LENGTH = 10_000;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const PARAM_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a decoded parameter (its name or a value) cannot be taken, or null: the store's text rule (src/domain/text.ts:
 * NUL, bytes that were not UTF-8, lone surrogates) and no control character at all (C0, DEL, C1: a parameter
 * has no use for a line break or a tab either). Pure.
 */
export function paramProblem(s: string): string | null {
  const p = textProblem(s, MAX_PARAM_LENGTH);
  if (p) return p;
  const ctl = PARAM_CONTROL.exec(s);
  return ctl ? `contains the control character U+${ctl[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

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
 * One text rule for every path and query parameter of every route, streams included, checked on the decoded
 * values before any handler, guard or fast path: a parameter that breaks it is 400 invalid_request naming it.
 */
export function registerTextParams(fastify: FastifyInstance, docsUrl: string): void {
  fastify.addHook('onRequest', (req, reply, done) => {
    const bad = firstProblem(req.params, 'path') ?? firstProblem(req.query, 'query');
    if (!bad) return done();
    void reply
      .code(400)
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(errorBody('invalid_request', `Invalid parameter "${bad.name}": ${bad.problem}`, docsUrl, { parameter: bad.name }));
  });
}
