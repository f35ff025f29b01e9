import { STATE_PATTERN } from '../deep-links/deep-link-templates.js';
import { CLIENT_PROFILE_PARAM, type WsClientProfile } from '../../common/client-profiles/ws.js';
import type { SubscribeMessage, WsMessages } from './ws-messages.js';

/** Every query parameter the upgrade URL may carry; any other is refused (a typo never streams unfiltered data). */
export const WS_QUERY_PARAMS = [
  'api_key',
  CLIENT_PROFILE_PARAM,
  'channels',
  'channel',
  'sport',
  'sportsbook',
  'league',
  'market',
  'event_id',
  'event',
  'live',
  'min_ev',
  'min_profit',
  'min_odds',
  'max_odds',
  'state',
  'resume',
  'from_seq',
  'last_event_id',
] as const;

/** Parameters of the AsyncAPI profile alone, and of the `spec` profile alone. */
const ASYNCAPI_ONLY = ['state', 'resume', 'from_seq'] as const;
const SPEC_ONLY = ['last_event_id'] as const;

/** The bounds of min_odds / max_odds (as on the REST routes). */
const AMERICAN_BOUND = 100_000;

/** What the upgrade URL asks for. */
export interface WsConnectOptions {
  /** The subscription (channels and filters), as a subscribe message would ask for it. */
  subscribe: SubscribeMessage;
  /** Bounds on the American price of the odds rows sent. */
  minOdds?: number;
  maxOdds?: number;
  /** US state (two letters, lower case) the deep links of the messages carry. */
  state?: string;
  /** The odds snapshot is skipped (resume=true, or from_seq given). */
  resume: boolean;
  /** Replay what came after this global_seq. */
  fromSeq?: number;
  /** The `spec` profile's resume point (an SSE-style frame id). */
  lastEventId?: string;
}

export type ParsedConnect = { ok: true; value: WsConnectOptions } | { ok: false; message: string };

const fail = (message: string): ParsedConnect => ({ ok: false, message });

/** A parameter given once, as text; an array means it was repeated. */
function single(q: Record<string, unknown>, name: string): string | undefined | { repeated: true } {
  const v = q[name];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v.trim() : { repeated: true };
}

/**
 * Reads the upgrade URL's query for a profile: the subscription (checked with the subscribe message's schema), the
 * odds bounds, the deep-link state and the resume point. Every parameter is either honoured or refused here with
 * a message naming it.
 */
export function parseWsQuery(q: Record<string, unknown>, messages: WsMessages, profile: WsClientProfile): ParsedConnect {
  for (const k of Object.keys(q)) {
    if (!(WS_QUERY_PARAMS as readonly string[]).includes(k))
      return fail(`Unknown parameter "${k.slice(0, 64)}" (allowed: ${WS_QUERY_PARAMS.join(', ')})`);
    if (profile === 'spec' && (ASYNCAPI_ONLY as readonly string[]).includes(k))
      return fail(`Parameter "${k}" belongs to the AsyncAPI profile; this connection asked for ${CLIENT_PROFILE_PARAM}=spec`);
    if (profile === 'asyncapi' && (SPEC_ONLY as readonly string[]).includes(k))
      return fail(
        `Parameter "${k}" belongs to ${CLIENT_PROFILE_PARAM}=spec; resume with resume=true&from_seq=<the last global_seq received>`,
      );
  }
  const sub = messages.subscribeFromQuery(q);
  if (!sub.ok) return fail(sub.message);
  const out: WsConnectOptions = { subscribe: sub.message as SubscribeMessage, resume: false };

  for (const name of ['min_odds', 'max_odds'] as const) {
    const v = single(q, name);
    if (v === undefined) continue;
    if (typeof v !== 'string') return fail(`Invalid parameter "${name}": given more than once`);
    const n = /^[-+]?\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n) || Math.abs(n) > AMERICAN_BOUND)
      return fail(
        `Invalid parameter "${name}": "${v.slice(0, 32)}" (an integer American price such as -200 or 150, at most ${AMERICAN_BOUND} either way)`,
      );
    if (name === 'min_odds') out.minOdds = n;
    else out.maxOdds = n;
  }
  if (out.minOdds !== undefined && out.maxOdds !== undefined && out.minOdds > out.maxOdds)
    return fail(`Invalid parameters: min_odds (${out.minOdds}) is greater than max_odds (${out.maxOdds})`);

  const state = single(q, 'state');
  if (state !== undefined) {
    if (typeof state !== 'string') return fail('Invalid parameter "state": given more than once');
    const st = state.toLowerCase();
    if (!STATE_PATTERN.test(st)) return fail(`Invalid parameter "state": "${state.slice(0, 32)}" (a two-letter US state code such as nj)`);
    out.state = st;
  }

  const resume = single(q, 'resume');
  if (resume !== undefined) {
    if (resume !== 'true' && resume !== 'false') return fail('Invalid parameter "resume": must be true or false');
    out.resume = resume === 'true';
  }
  const from = single(q, 'from_seq');
  if (from !== undefined) {
    if (typeof from !== 'string' || !/^\d{1,16}$/.test(from) || !Number.isSafeInteger(Number(from)))
      return fail('Invalid parameter "from_seq": must be a global_seq received from this server (a non-negative integer)');
    if (resume === 'false') return fail('Invalid parameters: from_seq replays what was missed, which resume=false contradicts');
    out.fromSeq = Number(from);
    out.resume = true;
  }

  const last = single(q, 'last_event_id');
  if (last !== undefined) {
    if (typeof last !== 'string' || last.length > 64)
      return fail('Invalid parameter "last_event_id": one frame id (at most 64 characters)');
    out.lastEventId = last;
  }
  return { ok: true, value: out };
}
