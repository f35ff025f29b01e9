import { describe, expect, it } from '@jest/globals';
import { WsMessages } from './ws-messages.js';
import { wsClientProfile } from '../../common/client-profiles/ws.js';
import { parseWsQuery, type WsConnectOptions } from './ws-query.js';

const messages = new WsMessages(['ev', 'arbitrage', 'middles', 'low_hold']);
const ok = (q: Record<string, unknown>, profile: 'asyncapi' | 'spec' = 'asyncapi'): WsConnectOptions => {
  const r = parseWsQuery(q, messages, profile);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const refusal = (q: Record<string, unknown>, profile: 'asyncapi' | 'spec' = 'asyncapi'): string => {
  const r = parseWsQuery(q, messages, profile);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(q)}`);
  return r.message;
};

describe('the WebSocket upgrade URL', () => {
  it('reads the AsyncAPI parameters: bounds, state (lower case), resume and from_seq', () => {
    expect(
      ok({
        api_key: 'k',
        channels: 'ev,odds',
        min_odds: '-200',
        max_odds: '+500',
        state: 'NJ',
        resume: 'true',
        from_seq: '1763812800000123',
      }),
    ).toEqual({
      subscribe: { type: 'subscribe', channels: ['ev', 'odds'], filters: {} },
      minOdds: -200,
      maxOdds: 500,
      state: 'nj',
      resume: true,
      fromSeq: 1763812800000123,
    });
    // from_seq alone resumes; resume=true alone skips the odds snapshot without a replay point.
    expect(ok({ from_seq: '12' })).toMatchObject({ resume: true, fromSeq: 12 });
    expect(ok({ resume: 'true' })).toEqual({ subscribe: { type: 'subscribe', filters: {} }, resume: true });
    expect(ok({ resume: 'false' }).resume).toBe(false);
    expect(ok({}).resume).toBe(false);
  });

  it('refuses what it cannot honour, naming the parameter', () => {
    expect(refusal({ min_odds: 'abc' })).toMatch(/^Invalid parameter "min_odds": "abc"/);
    expect(refusal({ max_odds: '1.5' })).toMatch(/^Invalid parameter "max_odds"/);
    expect(refusal({ max_odds: '100001' })).toMatch(/^Invalid parameter "max_odds"/);
    expect(refusal({ min_odds: ['-110', '-120'] })).toBe('Invalid parameter "min_odds": given more than once');
    expect(refusal({ min_odds: '150', max_odds: '-150' })).toBe('Invalid parameters: min_odds (150) is greater than max_odds (-150)');
    expect(refusal({ state: 'n' })).toMatch(/^Invalid parameter "state"/);
    expect(refusal({ state: 'n1' })).toMatch(/^Invalid parameter "state"/);
    expect(refusal({ resume: '1' })).toBe('Invalid parameter "resume": must be true or false');
    expect(refusal({ from_seq: '-1' })).toMatch(/^Invalid parameter "from_seq"/);
    expect(refusal({ from_seq: '99999999999999999' })).toMatch(/^Invalid parameter "from_seq"/);
    expect(refusal({ from_seq: '5', resume: 'false' })).toMatch(/resume=false contradicts/);
    expect(refusal({ colour: 'blue' })).toMatch(/^Unknown parameter "colour" \(allowed: api_key, client_profile, channels/);
    expect(refusal({ min_ev: 'high' })).toMatch(/min_ev must be of type number/);
  });

  it('keeps each profile to its own parameters', () => {
    expect(refusal({ last_event_id: '1-2' })).toMatch(/belongs to client_profile=spec; resume with resume=true&from_seq=/);
    for (const k of ['state', 'resume', 'from_seq'])
      expect(refusal({ [k]: k === 'state' ? 'nj' : '1' }, 'spec')).toBe(
        `Parameter "${k}" belongs to the AsyncAPI profile; this connection asked for client_profile=spec`,
      );
    expect(ok({ last_event_id: '1763812800000123-4', min_odds: '-150' }, 'spec')).toMatchObject({
      lastEventId: '1763812800000123-4',
      minOdds: -150,
    });
  });
});

describe('the WebSocket client profile', () => {
  it('is the AsyncAPI profile unless client_profile or X-Client-Profile says spec (the parameter first)', () => {
    expect(wsClientProfile({}, {})).toEqual({ ok: true, profile: 'asyncapi' });
    expect(wsClientProfile({}, { 'sec-websocket-protocol': 'sharpapi-v1' })).toEqual({ ok: true, profile: 'asyncapi' });
    expect(wsClientProfile({ client_profile: 'spec' }, {})).toEqual({ ok: true, profile: 'spec' });
    expect(wsClientProfile({}, { 'x-client-profile': 'Spec' })).toEqual({ ok: true, profile: 'spec' });
    expect(wsClientProfile({ client_profile: 'asyncapi' }, { 'x-client-profile': 'spec' })).toEqual({ ok: true, profile: 'asyncapi' });
    expect(wsClientProfile({ client_profile: 'ts' }, {})).toEqual({
      ok: false,
      profile: 'asyncapi',
      message: 'Invalid "client_profile": "ts" (allowed on /ws: asyncapi, spec)',
    });
    expect(wsClientProfile({}, { 'x-client-profile': ['spec', 'asyncapi'] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('X-Client-Profile'),
    });
  });
});
