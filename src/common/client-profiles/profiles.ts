import { ApiError } from '../http/api-error.js';

/**
 * Client profiles: the spec's shapes are the default (`spec`); each official client that parses something else gets
 * what it parses, recognised by what it sends. This file says how a request is recognised; the translations live
 * beside it (rest-shapes.ts, sse-ts.ts) and the README's "Client profiles" table lists them.
 *
 * - `python`: the official Python client (0.2.x and 0.4.x), recognised by `User-Agent: sharpapi-python/...`.
 * - `ts`: the official TypeScript client's SSE streams, recognised by `type=` without `channel=`/`channels=`.
 * - `asyncapi`: WebSocket clients of the public AsyncAPI document, the default on the WebSocket (ws.ts).
 * - `spec`: everyone else.
 *
 * Anyone may choose a profile explicitly: the `X-Client-Profile` header (REST, SSE, WebSocket), or the
 * `client_profile` query parameter where a client cannot set headers (SSE, WebSocket).
 */
export const CLIENT_PROFILES = ['spec', 'python', 'ts', 'asyncapi'] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];

export const PROFILE_HEADER = 'x-client-profile';
export const PROFILE_PARAM = 'client_profile';

const PYTHON_AGENT = /^sharpapi-python\//i;

type Headers = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[v.length - 1] : v);

/** A profile name as a client wrote it: trimmed, any case. Anything else is a 400 naming the accepted values. */
export function parseProfile(raw: string, where: string): ClientProfile {
  const v = raw.trim().toLowerCase();
  if ((CLIENT_PROFILES as readonly string[]).includes(v)) return v as ClientProfile;
  throw new ApiError('invalid_request', `${where} must be one of ${CLIENT_PROFILES.join(', ')}`);
}

/** The profile a request chose explicitly (query parameter first, then header), or undefined. */
export function explicitProfile(headers: Headers, query?: string): ClientProfile | undefined {
  if (query !== undefined) return parseProfile(query, PROFILE_PARAM);
  const h = one(headers[PROFILE_HEADER]);
  return h === undefined ? undefined : parseProfile(h, 'X-Client-Profile');
}

/** A REST request's profile: explicit, else `python` for the Python client's User-Agent, else `spec`. */
export function restProfile(headers: Headers): ClientProfile {
  const explicit = explicitProfile(headers);
  if (explicit) return explicit;
  return PYTHON_AGENT.test(one(headers['user-agent']) ?? '') ? 'python' : 'spec';
}

/** What an SSE request sent that tells its profile. */
export interface SseSignals {
  type?: readonly string[];
  channel?: readonly string[];
  channels?: readonly string[];
  client_profile?: string;
}

/**
 * An SSE request's profile: explicit, else `ts` when it names its channel with `type=` only (the TypeScript client
 * never sends `channel=`), else `spec`. The Python client reads named events, as the spec sends them.
 */
export function sseProfile(headers: Headers, q: SseSignals): ClientProfile {
  const explicit = explicitProfile(headers, q.client_profile);
  if (explicit) return explicit;
  return q.type !== undefined && q.channel === undefined && q.channels === undefined ? 'ts' : 'spec';
}
