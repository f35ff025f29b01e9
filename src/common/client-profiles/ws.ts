/**
 * The client profiles of the WebSocket at /api/v1/ws: which message shapes a connection is sent.
 *
 * - `asyncapi` (the default): the public AsyncAPI document's messages. Channels omitted = every channel the tier
 *   allows, streaming at once; `initial` per book, `opportunities_snapshot`, `odds:update{source, data[]}`,
 *   integer `seq`, `global_seq` and `resume`/`from_seq` replay.
 * - `spec`: the event names and payloads of the SSE stream in `{type, seq, timestamp, data}` frames (the SSE
 *   frame id as `seq`); with no `channels` in the URL nothing is streamed until the client sends `subscribe`.
 *
 * Chosen by the `client_profile` query parameter, else the `X-Client-Profile` header, else the default. The
 * `sharpapi-v1` subprotocol (which the document tells public clients to negotiate) is accepted and needs nothing
 * more: it names the default.
 */
import { PROFILE_HEADER, PROFILE_PARAM, type ClientProfile } from './profiles.js';

export const WS_CLIENT_PROFILES = ['asyncapi', 'spec'] as const satisfies readonly ClientProfile[];
export type WsClientProfile = (typeof WS_CLIENT_PROFILES)[number];

export const WS_DEFAULT_PROFILE: WsClientProfile = 'asyncapi';
/** The query parameter that selects a profile explicitly. */
export const CLIENT_PROFILE_PARAM = PROFILE_PARAM;
/** The header that selects a profile explicitly (lower case, as Node presents headers). */
export const CLIENT_PROFILE_HEADER = PROFILE_HEADER;
/** The subprotocol of the AsyncAPI document. */
export const ASYNCAPI_SUBPROTOCOL = 'sharpapi-v1';

export type ProfileChoice = { ok: true; profile: WsClientProfile } | { ok: false; profile: WsClientProfile; message: string };

const isProfile = (v: string): v is WsClientProfile => (WS_CLIENT_PROFILES as readonly string[]).includes(v);

/**
 * The profile a connection asks for. A value that names no profile is refused (the connection then speaks the
 * default profile, in which the refusal is sent).
 */
export function wsClientProfile(query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>): ProfileChoice {
  const fromQuery = query[CLIENT_PROFILE_PARAM];
  const fromHeader = headers[CLIENT_PROFILE_HEADER];
  const [what, raw] = fromQuery !== undefined ? [`"${CLIENT_PROFILE_PARAM}"`, fromQuery] : ['the X-Client-Profile header', fromHeader];
  if (raw === undefined) return { ok: true, profile: WS_DEFAULT_PROFILE };
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
  if (value !== null && isProfile(value)) return { ok: true, profile: value };
  const shown = typeof raw === 'string' ? `"${raw.slice(0, 64)}"` : 'given more than once';
  return {
    ok: false,
    profile: WS_DEFAULT_PROFILE,
    message: `Invalid ${what}: ${shown} (allowed on /ws: ${WS_CLIENT_PROFILES.join(', ')})`,
  };
}
