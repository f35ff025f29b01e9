import { firstValueProblem } from '../../common/http/text-params.js';
import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import { dict } from '../../domain/dict.js';

/**
 * What a WebSocket client may send, as JSON Schemas checked with ajv before any field is
 * read: `{"type":"ping"}` and `{"type":"subscribe", channels?, filters?}`. Everything else is answered with
 * an `error` frame (`invalid_message` or `unknown_message_type`) and the socket stays open.
 */
/** The channels that are not opportunity types; each opportunity type adds its own (Detector.stream.channel). */
export const WS_BASE_CHANNELS = ['odds', 'gamestate'] as const;
export type WsChannel = string;

export interface SubscribeFilters {
  sports?: string[];
  sportsbooks?: string[];
  leagues?: string[];
  markets?: string[];
  eventIds?: string[];
  /** true: live prices and opportunities only; false: pre-game only (as the SSE stream's `live`). */
  live?: boolean;
  min_ev?: number;
  min_profit?: number;
}

export interface SubscribeMessage {
  type: 'subscribe';
  channels?: WsChannel[];
  filters?: SubscribeFilters;
}

export interface PingMessage {
  type: 'ping';
}

export type ClientMessage = SubscribeMessage | PingMessage;

export type MessageErrorCode = 'invalid_message' | 'unknown_message_type';

export type ParsedMessage = { ok: true; message: ClientMessage } | { ok: false; code: MessageErrorCode; message: string };

/** Bounds on one subscribe message: how many values a filter list holds and how long one value may be. */
export const MAX_LIST = 500;
export const MAX_VALUE_LENGTH = 128;

const list = { type: 'array', maxItems: MAX_LIST, items: { type: 'string', minLength: 1, maxLength: MAX_VALUE_LENGTH } } as const;

const envelopeSchema: JSONSchemaType<{ type: string }> = {
  type: 'object',
  properties: { type: { type: 'string', maxLength: 64 } },
  required: ['type'],
};

// Not JSONSchemaType: it would make optional fields accept null, and a null filter is a mistake to report.
const subscribeSchema = (channels: readonly string[]) => ({
  type: 'object',
  properties: {
    type: { type: 'string', const: 'subscribe' },
    channels: { type: 'array', minItems: 1, maxItems: channels.length, items: { type: 'string', enum: channels } },
    filters: {
      type: 'object',
      properties: {
        sports: list,
        sportsbooks: list,
        leagues: list,
        markets: list,
        eventIds: list,
        live: { type: 'boolean' },
        min_ev: { type: 'number', minimum: -100, maximum: 1000 },
        min_profit: { type: 'number', minimum: 0, maximum: 100 },
      },
      additionalProperties: false,
    },
  },
  required: ['type'],
  additionalProperties: false,
});

const pingSchema: JSONSchemaType<PingMessage> = {
  type: 'object',
  properties: { type: { type: 'string', const: 'ping' } },
  required: ['type'],
};

/** `filters.sportsbooks.0 must be string`: the first schema error, in the client's terms. */
export function describeError(e: ErrorObject | undefined): string {
  if (!e) return 'The message does not match its schema';
  const path = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'the message';
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `${path} has an unknown field "${String(params.additionalProperty)}"`;
  if (e.keyword === 'enum') return `${path} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  if (e.keyword === 'type') return `${path} must be of type ${String(params.type)}`;
  return `${path} ${e.message ?? 'is invalid'}`;
}

const fail = (code: MessageErrorCode, message: string): ParsedMessage => ({ ok: false, code, message });

function compileValidators(channels: readonly string[]) {
  // One error is enough to answer with (and stops validation early).
  const ajv = new Ajv({ allErrors: false, strict: true });
  return {
    envelope: ajv.compile(envelopeSchema),
    subscribe: ajv.compile<SubscribeMessage>(subscribeSchema(channels)),
    ping: ajv.compile(pingSchema),
  };
}

/**
 * The message parser of one set of channels: the opportunity types' channels (in registration order) then
 * odds and gamestate. Its schemas are compiled once, when the gateway starts.
 */
export class WsMessages {
  /** Every channel a subscription may name. */
  readonly channels: readonly string[];
  private readonly validators: ReturnType<typeof compileValidators>;

  constructor(opportunityChannels: readonly string[]) {
    this.channels = [...opportunityChannels, ...WS_BASE_CHANNELS];
    this.validators = compileValidators(this.channels);
  }

  /** Validates a value as a subscribe message (a message's body, or what the upgrade URL's query asks for). */
  checkSubscribe(value: unknown, what = 'subscribe message'): ParsedMessage {
    if (!this.validators.subscribe(value))
      return fail('invalid_message', `Invalid ${what}: ${describeError(this.validators.subscribe.errors?.[0])}`);
    return { ok: true, message: value };
  }

  /**
   * The subscription an upgrade URL asks for (`?channels=odds,ev&league=nba&min_ev=3`; lists comma-separated,
   * names case-insensitive), checked with the subscribe message's schema. `channels` is undefined when the URL
   * names none.
   */
  subscribeFromQuery(q: Record<string, unknown>): ParsedMessage {
    const list = (v: unknown, lower = true): unknown => {
      if (v === undefined) return undefined;
      const parts = Array.isArray(v) ? v : [v];
      if (!parts.every((p): p is string => typeof p === 'string')) return v;
      const out = parts
        .flatMap((p) => p.split(','))
        .map((x) => x.trim())
        .filter((x) => x.length > 0);
      return lower ? out.map((x) => x.toLowerCase()) : out;
    };
    const bool = (v: unknown): unknown => (v === 'true' ? true : v === 'false' ? false : v);
    const num = (v: unknown): unknown => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
    const filters: Record<string, unknown> = dict({
      sports: list(q.sport),
      sportsbooks: list(q.sportsbook),
      leagues: list(q.league),
      markets: list(q.market),
      eventIds: list(q.event_id ?? q.event, false),
      live: bool(q.live),
      min_ev: num(q.min_ev),
      min_profit: num(q.min_profit),
    });
    for (const k of Object.keys(filters)) if (filters[k] === undefined) delete filters[k];
    const value: Record<string, unknown> = dict({ type: 'subscribe', filters });
    const channels = list(q.channels ?? q.channel);
    if (channels !== undefined) value.channels = channels;
    return this.checkSubscribe(value, 'query string');
  }

  /**
   * Parses and validates one WebSocket message. Never throws: binary frames, text that is not JSON, JSON that
   * is not an object with a string `type`, and messages that break their type's schema are all answered.
   */
  parseClientMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ParsedMessage {
    if (isBinary) return fail('invalid_message', 'Binary frames are not accepted: send JSON text frames');
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return fail('invalid_message', 'Messages must be JSON objects such as {"type":"ping"}');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !this.validators.envelope(value)) {
      return fail('invalid_message', 'Messages must be JSON objects with a string "type" (subscribe or ping)');
    }
    // The text rule of every parameter and body (src/common/http/text-params.ts): no control characters, no NUL.
    const bad = firstValueProblem(value);
    if (bad) return fail('invalid_message', `Invalid message: "${bad.name}" ${bad.problem}`);
    const type = value.type;
    if (type === 'subscribe') return this.checkSubscribe(value);
    if (type === 'ping') {
      if (!this.validators.ping(value))
        return fail('invalid_message', `Invalid ping message: ${describeError(this.validators.ping.errors?.[0])}`);
      return { ok: true, message: value };
    }
    return fail('unknown_message_type', `Unknown message type ${JSON.stringify(type.slice(0, 64))} (allowed: subscribe, ping)`);
  }
}

/**
 * A fixed-window budget of messages: up to `limit` per window are accepted, the next ones up to `closeAt`
 * are refused (the client is told), and a client still sending past `closeAt` in one window is abusive.
 */
export class WindowBudget {
  private windowStart = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly closeAt: number,
  ) {}

  take(now: number): 'ok' | 'over' | 'abusive' {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count++;
    if (this.count <= this.limit) return 'ok';
    return this.count <= this.closeAt ? 'over' : 'abusive';
  }
}
