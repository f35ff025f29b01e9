import { describe, expect, it } from '@jest/globals';
import { MAX_LIST, MAX_VALUE_LENGTH, WindowBudget, WsMessages } from './ws-messages.js';

// The parser with the opportunity channels the service registers (ev, arbitrage, middles, low_hold).
const messages = new WsMessages(['ev', 'arbitrage', 'middles', 'low_hold']);
const parseClientMessage = messages.parseClientMessage.bind(messages);
const subscribeFromQuery = messages.subscribeFromQuery.bind(messages);
const checkSubscribe = messages.checkSubscribe.bind(messages);

const text = (s: string) => parseClientMessage(Buffer.from(s, 'utf8'), false);
const refused = (s: string) => {
  const r = text(s);
  if (r.ok) throw new Error(`accepted ${s}`);
  return r;
};

describe('WebSocket message schema', () => {
  it('accepts ping and the subscribe forms of the contract', () => {
    expect(text('{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping' } });
    // A ping may carry the client's own fields (some clients send a timestamp).
    expect(text('{"type":"ping","ts":1}').ok).toBe(true);
    expect(text('{"type":"subscribe"}')).toEqual({ ok: true, message: { type: 'subscribe' } });
    const full = {
      type: 'subscribe',
      channels: ['odds', 'ev'],
      filters: {
        sports: ['basketball'],
        sportsbooks: ['draftkings'],
        leagues: ['nba'],
        markets: ['moneyline'],
        eventIds: ['e1'],
        min_ev: 3,
        min_profit: 1,
      },
    };
    expect(text(JSON.stringify(full))).toEqual({ ok: true, message: full });
    // The TypeScript SDK's form: filters and no channels.
    expect(text('{"type":"subscribe","filters":{"sportsbooks":["fanduel"],"leagues":["nba"]}}').ok).toBe(true);
  });

  it.each([
    ['null'],
    ['true'],
    ['42'],
    ['"str"'],
    ['[]'],
    ['[1,2]'],
    ['{}'],
    ['{"type":null}'],
    ['{"type":42}'],
    ['{"type":{"a":1}}'],
    ['not json'],
    [''],
  ])('%s is invalid_message, never an exception', (raw) => {
    const r = refused(raw);
    expect(r.code).toBe('invalid_message');
    expect(r.message.length).toBeGreaterThan(0);
  });

  it('names unknown message types apart from broken ones', () => {
    const r = refused('{"type":"auth","token":"x"}');
    expect(r).toEqual({ ok: false, code: 'unknown_message_type', message: 'Unknown message type "auth" (allowed: subscribe, ping)' });
    // A long type is cut in the answer.
    expect(refused(JSON.stringify({ type: 'x'.repeat(60) })).message).toContain('x'.repeat(60));
    expect(refused(JSON.stringify({ type: 'x'.repeat(65) })).code).toBe('invalid_message');
  });

  it.each([
    [{ type: 'subscribe', channels: 'odds' }, 'channels must be of type array'],
    [{ type: 'subscribe', channels: ['odds', 7] }, 'channels.1 must be of type string'],
    [{ type: 'subscribe', channels: ['odds', null] }, 'channels.1 must be of type string'],
    [{ type: 'subscribe', channels: ['bets'] }, 'channels.0 must be one of ev, arbitrage, middles, low_hold, odds, gamestate'],
    [{ type: 'subscribe', channels: [] }, 'channels must NOT have fewer than 1 items'],
    [{ type: 'subscribe', filters: null }, 'filters must be of type object'],
    [{ type: 'subscribe', filters: ['nba'] }, 'filters must be of type object'],
    [{ type: 'subscribe', filters: { leagues: 'nba' } }, 'filters.leagues must be of type array'],
    [{ type: 'subscribe', filters: { leagues: [1] } }, 'filters.leagues.0 must be of type string'],
    [{ type: 'subscribe', filters: { leagues: [''] } }, 'filters.leagues.0 must NOT have fewer than 1 characters'],
    [{ type: 'subscribe', filters: { leagues: [{ nested: ['x'] }] } }, 'filters.leagues.0 must be of type string'],
    [{ type: 'subscribe', filters: { min_ev: '2' } }, 'filters.min_ev must be of type number'],
    [{ type: 'subscribe', filters: { min_profit: -1 } }, 'filters.min_profit must be >= 0'],
    [{ type: 'subscribe', filters: { league: ['nba'] } }, 'filters has an unknown field "league"'],
    [{ type: 'subscribe', extra: 1 }, 'the message has an unknown field "extra"'],
  ])('subscribe %j is refused: %s', (msg, why) => {
    const r = refused(JSON.stringify(msg));
    expect(r).toEqual({ ok: false, code: 'invalid_message', message: `Invalid subscribe message: ${why}` });
  });

  it('bounds list sizes and value lengths', () => {
    const many = Array.from({ length: MAX_LIST + 1 }, (_, i) => `e${i}`);
    expect(refused(JSON.stringify({ type: 'subscribe', filters: { eventIds: many } })).message).toBe(
      `Invalid subscribe message: filters.eventIds must NOT have more than ${MAX_LIST} items`,
    );
    expect(text(JSON.stringify({ type: 'subscribe', filters: { eventIds: many.slice(1) } })).ok).toBe(true);
    expect(refused(JSON.stringify({ type: 'subscribe', filters: { leagues: ['x'.repeat(MAX_VALUE_LENGTH + 1)] } })).message).toContain(
      `must NOT have more than ${MAX_VALUE_LENGTH} characters`,
    );
  });

  it('refuses binary frames and survives deeply nested JSON', () => {
    expect(parseClientMessage(Buffer.from('{"type":"ping"}'), true)).toEqual({
      ok: false,
      code: 'invalid_message',
      message: 'Binary frames are not accepted: send JSON text frames',
    });
    const deep = `{"type":"subscribe","filters":{"leagues":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expect(refused(deep).message).toBe('Invalid subscribe message: filters.leagues.0 must be of type string');
    expect(refused('['.repeat(10_000) + ']'.repeat(10_000)).code).toBe('invalid_message');
    // Fragmented messages arrive as a list of buffers.
    expect(parseClientMessage([Buffer.from('{"type":'), Buffer.from('"ping"}')], false).ok).toBe(true);
  });

  it('treats prototype names as plain fields', () => {
    expect(refused('{"type":"subscribe","__proto__":{"channels":["odds"]}}').message).toBe(
      'Invalid subscribe message: the message has an unknown field "__proto__"',
    );
    expect(refused('{"type":"constructor"}').code).toBe('unknown_message_type');
  });
});

describe('subscription from the upgrade URL', () => {
  it('reads comma lists (lower-cased names, event ids as given) and numbers', () => {
    const r = subscribeFromQuery({ channels: 'Odds,ev', league: 'NBA,nhl', event_id: 'Ev_1', min_ev: '3.5', api_key: 'k' });
    expect(r).toEqual({
      ok: true,
      message: { type: 'subscribe', channels: ['odds', 'ev'], filters: { leagues: ['nba', 'nhl'], eventIds: ['Ev_1'], min_ev: 3.5 } },
    });
    expect(subscribeFromQuery({})).toEqual({ ok: true, message: { type: 'subscribe', filters: {} } });
    expect(subscribeFromQuery({ live: 'false' })).toEqual({ ok: true, message: { type: 'subscribe', filters: { live: false } } });
    expect(checkSubscribe({ type: 'subscribe', filters: { live: true } }).ok).toBe(true);
  });

  it('refuses what the message schema refuses', () => {
    expect(subscribeFromQuery({ channels: 'bets' })).toEqual({
      ok: false,
      code: 'invalid_message',
      message: 'Invalid query string: channels.0 must be one of ev, arbitrage, middles, low_hold, odds, gamestate',
    });
    expect(subscribeFromQuery({ min_ev: 'abc' })).toEqual({
      ok: false,
      code: 'invalid_message',
      message: 'Invalid query string: filters.min_ev must be of type number',
    });
    expect(subscribeFromQuery({ min_profit: '500' }).ok).toBe(false);
    expect(subscribeFromQuery({ live: 'yes' })).toEqual({
      ok: false,
      code: 'invalid_message',
      message: 'Invalid query string: filters.live must be of type boolean',
    });
    expect(checkSubscribe({ type: 'subscribe', filters: { live: 'true' } }).ok).toBe(false);
    expect(checkSubscribe({ type: 'subscribe', channels: ['odds'] }).ok).toBe(true);
  });
});

describe('WindowBudget', () => {
  it('serves `limit` per window, refuses up to `closeAt`, then calls it abusive; a new window starts afresh', () => {
    const b = new WindowBudget(3, 1000, 5);
    const at0 = [0, 1, 2, 3, 4, 5].map((t) => b.take(t));
    expect(at0).toEqual(['ok', 'ok', 'ok', 'over', 'over', 'abusive']);
    expect(b.take(999)).toBe('abusive');
    expect(b.take(1000)).toBe('ok');
  });
});
