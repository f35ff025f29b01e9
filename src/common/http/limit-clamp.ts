import type { FastifyInstance } from 'fastify';

/**
 * `X-Limit-Clamped`: a list whose pages hold at most N items (query.ts, `PageBounds.clampUpTo`) serves a larger
 * `limit` as N instead of refusing it, and says so with this header (value: the limit applied). The validation
 * pipe notes, per request query, when the validated `limit` differs from the one asked; the hook below writes the
 * header on the successful answer. Requests answered before the Nest pipeline (the odds fast path) read the same
 * note, taken from the pipe's remembered result.
 */
export const LIMIT_CLAMPED_HEADER = 'X-Limit-Clamped';

/** The limit applied, per raw query object (the request's own `request.query`), when it differs from the one asked. */
const clamped = new WeakMap<object, number>();

const first = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

/** Notes a clamp when the validated query's `limit` is not the integer the raw query asked for. */
export function noteClampedLimit(raw: unknown, validated: unknown): void {
  if (!raw || typeof raw !== 'object' || !validated || typeof validated !== 'object') return;
  const asked = first((raw as Record<string, unknown>).limit);
  const applied = (validated as Record<string, unknown>).limit;
  if (typeof asked !== 'string' || typeof applied !== 'number' || !/^[+-]?\d{1,15}$/.test(asked.trim())) return;
  if (Number(asked) !== applied) clamped.set(raw, applied);
}

/** The limit applied to a request's query when it was clamped. */
export function clampedLimitOf(raw: unknown): number | undefined {
  return raw && typeof raw === 'object' ? clamped.get(raw) : undefined;
}

/** Writes `X-Limit-Clamped` on every successful answer to a request whose limit was clamped. */
export function registerLimitClampHeader(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (req, reply, payload, done) => {
    const limit = clampedLimitOf(req.query);
    if (limit !== undefined && reply.statusCode < 300) void reply.header(LIMIT_CLAMPED_HEADER, String(limit));
    done(null, payload);
  });
}
