import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import { WsClient } from '../support/ws-client.js';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { StreamHub } from '../../src/modules/stream/stream-hub.js';
import { buildMarket, celticsMoneyline, H } from '../factories/market.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const GAMES = [
  { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 6 * H },
  { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 8 * H },
];
const BOOKS = ['draftkings', 'fanduel', 'betmgm', 'pinnacle'];
/**
 * The board: the factory's market, with an arbitrage in it. DraftKings Celtics +115 (2.15) against Pinnacle's
 * Lakers +109 (2.09): 1/2.15 + 1/2.09 = 0.9436; DraftKings' own Lakers price at -116 keeps its market sound.
 */
const MARKET = buildMarket(GAMES, BOOKS, NOW).map((q) =>
  q.book === 'draftkings' && q.marketType === 'moneyline' && q.homeTeam === 'Boston Celtics'
    ? { ...q, price: { american: q.selection === 'Boston Celtics' ? 115 : -116 } }
    : q,
);

// ---------------------------------------------------------------------------------------------------------------
// The AsyncAPI document (public/asyncapi.yaml of the product's documentation), its server messages transcribed:
// every message is ServerEnvelope (`type`, `seq` required) plus its own payload, its required fields as listed.
// ---------------------------------------------------------------------------------------------------------------
type Schema = Record<string, unknown>;
const CHANNELS = ['ev', 'arbitrage', 'middles', 'low_hold', 'odds'];
const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const strList = { type: 'array', items: str };
const nullableStrList = { type: ['array', 'null'], items: str };
const objects = (items: Schema = { type: 'object' }) => ({ type: 'array', items });
const channelList = { oneOf: [{ type: 'array', items: { type: 'string', enum: CHANNELS } }, { type: 'null' }] };

const envelope: Schema = {
  type: 'object',
  required: ['type', 'seq'],
  properties: {
    type: str,
    seq: int,
    global_seq: int,
    replay: bool,
    timestamp: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' },
  },
};
const ev: Schema = {
  type: 'object',
  properties: {
    id: str,
    game_id: str,
    ev_percentage: num,
    odds_american: int,
    odds_decimal: num,
    no_vig_odds: int,
    selection: str,
    market: str,
    line: { type: ['number', 'null'] },
    sportsbook: str,
    game: str,
    sport: str,
    league: str,
    home_team: str,
    away_team: str,
    start_time: str,
    is_live: bool,
    confidence_score: num,
    kelly_percent: num,
    book_count: int,
    detected_at: str,
  },
};
const arb: Schema = {
  type: 'object',
  properties: {
    id: str,
    event_id: str,
    event_name: str,
    sport: str,
    league: str,
    market_type: str,
    line: { type: ['number', 'null'] },
    profit_percent: num,
    implied_total: num,
    is_live: bool,
    legs: objects({
      type: 'object',
      properties: {
        sportsbook: str,
        selection: str,
        odds_american: int,
        odds_decimal: num,
        implied_probability: num,
        stake_percent: num,
      },
    }),
    detected_at: str,
  },
};
const middleSide: Schema = {
  type: 'object',
  properties: {
    book: str,
    selection: str,
    line: num,
    odds: { type: 'object', properties: { american: int, decimal: num, probability: num, fair_probability: num } },
    stake_percent: num,
    odds_age_seconds: num,
    deep_link: { type: ['string', 'null'] },
  },
};
const middle: Schema = {
  type: 'object',
  properties: {
    id: str,
    event_id: str,
    event_name: str,
    sport: str,
    league: str,
    market_type: str,
    side1: middleSide,
    side2: middleSide,
    middle_size: num,
    middle_numbers: { type: 'array', items: int },
    middle_probability: num,
    expected_value: num,
    roi_percentage: num,
    quality_score: num,
    detected_at: str,
  },
};
const lowHoldSide: Schema = {
  type: 'object',
  properties: {
    selection: str,
    books: strList,
    line: { type: ['number', 'null'] },
    odds: { type: 'object', properties: { american: int, decimal: num, implied_probability: num, fair_probability: num } },
    deep_links: { type: 'object', additionalProperties: str },
  },
};
const lowHold: Schema = {
  type: 'object',
  properties: {
    id: str,
    event_id: str,
    event_name: str,
    sport: str,
    league: str,
    market_type: str,
    line: { type: ['number', 'null'] },
    home_team: str,
    away_team: str,
    start_time: str,
    hold_percentage: num,
    is_live: bool,
    all_books: strList,
    side1: lowHoldSide,
    side2: lowHoldSide,
    detected_at: str,
  },
};
const expired: Schema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['expired'], properties: { expired: strList } } },
};
const detected = (item: Schema): Schema => ({ type: 'object', required: ['data'], properties: { data: objects(item) } });
const oddsRows = objects({ type: 'object' });

const PAYLOADS: Record<string, Schema> = {
  connected: {
    type: 'object',
    required: ['stream_id', 'tier', 'features', 'channels', 'global_seq', 'books'],
    properties: {
      message: str,
      stream_id: str,
      tier: { type: 'string', enum: ['free', 'hobby', 'pro', 'sharp', 'enterprise'] },
      features: { type: 'object', properties: { ev: bool, arbitrage: bool, middles: bool, low_hold: bool } },
      channels: channelList,
      global_seq: int,
      books: { type: 'object', properties: { max: int, allowed: { oneOf: [strList, { type: 'null' }] } } },
    },
  },
  subscribed: {
    type: 'object',
    properties: {
      channels: channelList,
      sports: nullableStrList,
      sportsbooks: nullableStrList,
      leagues: nullableStrList,
      markets: nullableStrList,
      eventIds: nullableStrList,
      min_ev: { type: ['number', 'null'] },
      min_profit: { type: ['number', 'null'] },
    },
  },
  opportunities_snapshot: {
    type: 'object',
    properties: {
      chunk: { type: 'integer', minimum: 1 },
      totalChunks: { type: 'integer', minimum: 1 },
      ev: objects(ev),
      arbitrage: objects(arb),
      middles: objects(middle),
      low_hold: objects(lowHold),
    },
  },
  initial: { type: 'object', required: ['source', 'data'], properties: { source: str, data: oddsRows, count: int } },
  'snapshot:complete': { type: 'object', properties: { books: strList, resumed: bool, progressive: bool } },
  'odds:update': { type: 'object', required: ['source', 'data'], properties: { source: str, data: oddsRows, count: int } },
  // The WebSocket reference page's `odds:locked`: the payload of odds:update.
  'odds:locked': { type: 'object', required: ['source', 'data'], properties: { source: str, data: oddsRows, count: int } },
  'odds:removed': { type: 'object', required: ['source', 'ids'], properties: { source: str, ids: strList, count: int } },
  'ev:detected': detected(ev),
  'ev:expired': expired,
  'arb:detected': detected(arb),
  'arb:expired': expired,
  'middles:detected': detected(middle),
  'middles:expired': expired,
  'low_hold:detected': detected(lowHold),
  'low_hold:expired': expired,
  heartbeat: { type: 'object' },
  pong: { type: 'object' },
  error: { type: 'object', required: ['code', 'message'], properties: { code: str, message: str } },
};

const ajv = new Ajv({ allErrors: true, strict: false });
const VALIDATORS = new Map<string, ValidateFunction>(
  Object.entries(PAYLOADS).map(([type, payload]) => [type, ajv.compile({ allOf: [envelope, payload] })]),
);

type Msg = Record<string, any> & { type: string; seq: number };

/**
 * A WebSocket client written from the AsyncAPI document: negotiates `sharpapi-v1`, parses each text message,
 * checks it against its message's schema (an undocumented type is a violation too) and that `seq` counts up by one.
 */
class AsyncApiClient extends WsClient<Msg> {
  readonly violations: string[] = [];

  constructor(url: string, protocols: string[] = ['sharpapi-v1'], headers: Record<string, string> = {}) {
    super(url, { protocols, headers });
  }

  get messages(): Msg[] {
    return this.frames;
  }

  protected override inspect(m: Msg, prev: Msg | undefined): void {
    const validate = VALIDATORS.get(m.type);
    const value: unknown = m;
    if (!validate) this.violations.push(`undocumented message type ${JSON.stringify(m.type)}`);
    else if (!validate(value)) this.violations.push(`${m.type}: ${ajv.errorsText(validate.errors)}`);
    if (m.seq !== (prev ? prev.seq + 1 : 1)) this.violations.push(`${m.type}: seq ${m.seq} after ${prev?.seq ?? 'nothing'}`);
  }
}

describe('WebSocket, AsyncAPI profile: a client written from the AsyncAPI document', () => {
  let t: TestApp;
  const clients: AsyncApiClient[] = [];
  const ws = (key: string, query = '', protocols?: string[], headers?: Record<string, string>) => {
    const c = new AsyncApiClient(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}${query}`, protocols, headers);
    clients.push(c);
    return c;
  };
  /** A price as an operator's import sends it (POST /admin/ingest). */
  const inject = async (quotes: Quote[]) => {
    const r = await t.call('/admin/ingest', {
      method: 'POST',
      body: { source: 'import', quotes },
      headers: { 'X-Admin-Token': t.adminToken },
    });
    expect(r.status).toBe(200);
    const same = (a: Quote, b: Quote) =>
      a.book === b.book && a.homeTeam === b.homeTeam && a.marketType === b.marketType && a.selection === b.selection && a.line === b.line;
    for (const q of quotes) board = board.map((b) => (same(b, q) ? q : b));
  };
  const celtics = (book: string, american: number, side: 'home' | 'away' = 'home') => celticsMoneyline(book, american, NOW, side);
  /** The prices on the board now: the market, as the tests changed it. */
  let board: Quote[] = MARKET;
  /** The rows a book holds on the board, and those within American bounds. */
  const quotesOf = (book: string, min = -Infinity, max = Infinity) =>
    board.filter((q) => q.book === book && q.price.american !== undefined && q.price.american >= min && q.price.american <= max);

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: MARKET }, NOW, { backfill: true });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t.close();
  });

  it('opens with connected, subscribed, one opportunities_snapshot per channel, initial per book, snapshot:complete (no subscribe sent)', async () => {
    const key = await t.newKey('sharp');
    const c = ws(key);
    const complete = await c.seen('snapshot:complete');
    expect(c.ws.protocol).toBe('sharpapi-v1');
    const types = c.messages.map((m) => m.type);
    const compact = types.filter((x, i) => x !== types[i - 1]);
    expect(compact).toEqual(['connected', 'subscribed', 'opportunities_snapshot', 'initial', 'snapshot:complete']);

    const connected = c.messages[0]!;
    expect(connected).toMatchObject({ seq: 1, tier: 'sharp', channels: null, books: { max: -1, allowed: null } });
    expect(connected.features).toMatchObject({ ev: true, arbitrage: true, middles: true, low_hold: true });
    expect(connected.global_seq).toBeGreaterThan(0);
    expect(c.of('subscribed')[0]).toMatchObject({ channels: null, sportsbooks: null, min_ev: 2, min_profit: 0.5 });

    // One per opportunity channel, keyed by the channel.
    const snaps = c.of('opportunities_snapshot');
    expect(snaps.map((m) => Object.keys(m).filter((k) => CHANNELS.includes(k)))).toEqual([
      ['ev'],
      ['arbitrage'],
      ['middles'],
      ['low_hold'],
    ]);
    // The arbitrage put on the board is there (its items checked against ArbOpportunity like every message).
    expect(snaps[1]!.arbitrage).toEqual([
      expect.objectContaining({
        legs: expect.arrayContaining([expect.objectContaining({ sportsbook: 'draftkings', odds_american: 115 })]),
      }),
    ]);

    // Prices: per book, array data, every row of its source, all of the book's rows.
    const initial = c.of('initial');
    expect(new Set(initial.map((m) => m.source))).toEqual(new Set(BOOKS));
    for (const m of initial) {
      expect(Array.isArray(m.data)).toBe(true);
      expect(m.count).toBe(m.data.length);
      expect(m.data.length).toBeLessThanOrEqual(1000);
      expect(m.data.every((r: any) => r.sportsbook === m.source)).toBe(true);
    }
    for (const book of BOOKS) expect(initial.filter((m) => m.source === book).reduce((n, m) => n + m.count, 0)).toBe(quotesOf(book).length);
    expect(complete).toMatchObject({ books: [...BOOKS].sort(), resumed: false, progressive: true });
    expect(complete.global_seq).toBeGreaterThanOrEqual(connected.global_seq);

    c.send({ type: 'ping' });
    await c.seen('pong');
    t.app.get(StreamHub).heartbeatNow();
    await c.seen('heartbeat');
    expect(c.violations).toEqual([]);
  });

  it('a price change arrives as odds:update with array data and top-level source; missed ones are replayed after a resume', async () => {
    const key = await t.newKey('sharp');
    const first = ws(key, '&channels=odds,arbitrage');
    await first.seen('snapshot:complete');
    expect(first.messages[0]).toMatchObject({ channels: ['odds', 'arbitrage'] });
    await inject([celtics('fanduel', -131)]);
    const upd = await first.seen((m) => m.type === 'odds:update' && m.source === 'fanduel');
    expect(Array.isArray(upd.data)).toBe(true);
    expect(upd.count).toBe(upd.data.length);
    expect(upd.data).toEqual([expect.objectContaining({ sportsbook: 'fanduel', odds_american: -131, selection: 'Boston Celtics' })]);
    expect(upd.global_seq).toBeGreaterThan(first.messages[0]!.global_seq);
    expect(upd.replay).toBeUndefined();
    // What the document says to keep: the latest global_seq seen.
    const lastSeen = Math.max(...first.messages.filter((m) => m.global_seq !== undefined).map((m) => m.global_seq as number));
    expect(first.violations).toEqual([]);
    first.close();
    await first.closed;

    // Missed while disconnected: two changes, at two books.
    await inject([celtics('draftkings', -142)]);
    await inject([celtics('betmgm', -153)]);
    const again = ws(key, `&channels=odds,arbitrage&resume=true&from_seq=${lastSeen}`);
    const complete = await again.seen('snapshot:complete');
    expect(complete).toMatchObject({ resumed: true, books: [], progressive: false });
    expect(again.of('initial')).toEqual([]);
    expect(again.of('opportunities_snapshot')).toEqual([]);
    const connected = again.messages[0]!;
    expect(connected).toMatchObject({ type: 'connected', resumed: true });
    // Everything before snapshot:complete after `subscribed` is a replay, newer than from_seq and not newer than the connection.
    const replayed = again.messages.slice(again.messages.indexOf(again.of('subscribed')[0]!) + 1, again.messages.indexOf(complete));
    expect(replayed.length).toBeGreaterThanOrEqual(2);
    for (const m of replayed) {
      expect(m.replay).toBe(true);
      expect(m.global_seq).toBeGreaterThan(lastSeen);
      expect(m.global_seq).toBeLessThanOrEqual(connected.global_seq);
    }
    const updates = replayed.filter((m) => m.type === 'odds:update');
    expect(updates.map((m) => [m.source, m.data.map((r: any) => r.odds_american)])).toEqual([
      ['draftkings', [-142]],
      ['betmgm', [-153]],
    ]);
    expect(updates[0]!.global_seq).toBeLessThan(updates[1]!.global_seq);
    // Live again: not a replay.
    await inject([celtics('pinnacle', -164)]);
    const live = await again.seen((m) => m.type === 'odds:update' && m.source === 'pinnacle');
    expect(live.replay).toBeUndefined();
    expect(live.global_seq).toBeGreaterThan(connected.global_seq);
    expect(again.violations).toEqual([]);
  });

  it('a from_seq older than the replay buffer gets a fresh snapshot, and says so (resumed: false)', async () => {
    const key = await t.newKey('sharp');
    for (const fromSeq of ['1000000000', '5']) {
      const c = ws(key, `&channels=odds&resume=true&from_seq=${fromSeq}`);
      const complete = await c.seen('snapshot:complete');
      expect(complete).toMatchObject({ resumed: false, progressive: true, books: [...BOOKS].sort() });
      expect(c.of('initial').reduce((n, m) => n + m.count, 0)).toBe(board.length);
      expect(c.messages.filter((m) => m.replay)).toEqual([]);
      expect(c.violations).toEqual([]);
      c.close();
      await c.closed;
    }
  });

  it('resume=true without from_seq skips the odds snapshot and streams from now', async () => {
    const key = await t.newKey('sharp');
    const c = ws(key, '&resume=true');
    const complete = await c.seen('snapshot:complete');
    expect(complete).toMatchObject({ resumed: true, books: [] });
    expect(c.of('initial')).toEqual([]);
    expect(c.of('opportunities_snapshot')).toHaveLength(4);
    await inject([celtics('fanduel', -118)]);
    await c.seen((m) => m.type === 'odds:update' && m.source === 'fanduel');
    expect(c.violations).toEqual([]);
  });

  it('min_odds / max_odds bound the American price of every odds row sent, in the snapshot and live', async () => {
    const key = await t.newKey('sharp');
    const c = ws(key, '&channels=odds&min_odds=-115&max_odds=120');
    await c.seen('snapshot:complete');
    const rows = c.of('initial').flatMap((m) => m.data as any[]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.odds_american >= -115 && r.odds_american <= 120)).toBe(true);
    for (const book of BOOKS) expect(rows.filter((r) => r.sportsbook === book).length).toBe(quotesOf(book, -115, 120).length);
    expect(c.of('subscribed')[0]).toMatchObject({ min_odds: -115, max_odds: 120 });
    // Out of range (-160), then in range (+105): only the second arrives.
    await inject([celtics('fanduel', -160)]);
    await inject([celtics('draftkings', 105, 'away')]);
    const upd = await c.seen((m) => m.type === 'odds:update' && m.source === 'draftkings');
    expect(upd.data.map((r: any) => r.odds_american)).toEqual([105]);
    expect(c.of('odds:update').flatMap((m) => m.data.map((r: any) => r.odds_american))).not.toContain(-160);
    expect(c.violations).toEqual([]);
  });

  it('state: every deep link of the messages carries it', async () => {
    const key = await t.newKey('sharp');
    const rest = await t.call('/odds?sportsbook=draftkings&limit=500', { key });
    const plain = (rest.json.data as any[]).map((r) => r.deep_link).filter((l) => l !== null);
    expect(plain.length).toBeGreaterThan(0);
    const c = ws(key, '&channels=odds&sportsbook=draftkings&state=NJ');
    await c.seen('snapshot:complete');
    const links = c
      .of('initial')
      .flatMap((m) => m.data as any[])
      .map((r) => r.deep_link)
      .filter((l) => l !== null);
    expect(links.sort()).toEqual(plain.map((l) => `${l}?state=nj`).sort());
    expect(c.of('subscribed')[0]).toMatchObject({ state: 'nj', sportsbooks: ['draftkings'] });
    expect(c.violations).toEqual([]);
  });

  it('a subscribe replaces the channels and filters: a new snapshot of what it names', async () => {
    const key = await t.newKey('sharp');
    const c = ws(key);
    await c.seen('snapshot:complete');
    const before = c.messages.length;
    c.send({ type: 'subscribe', channels: ['odds'], filters: { sportsbooks: ['pinnacle'] } });
    const sub = await c.seen((m) => m.type === 'subscribed' && m.seq > before);
    expect(sub).toMatchObject({ channels: ['odds'], sportsbooks: ['pinnacle'] });
    const complete = await c.seen((m) => m.type === 'snapshot:complete' && m.seq > sub.seq);
    expect(complete).toMatchObject({ books: ['pinnacle'], resumed: false });
    const after = c.messages.filter((m) => m.seq > sub.seq && m.seq < complete.seq);
    expect(new Set(after.map((m) => m.type))).toEqual(new Set(['initial']));
    expect(after.reduce((n, m) => n + m.count, 0)).toBe(quotesOf('pinnacle').length);
    expect(c.violations).toEqual([]);
  });

  it.each([
    ['min_odds=abc', /"min_odds": "abc"/],
    ['max_odds=1.5', /"max_odds"/],
    ['min_odds=200&max_odds=-200', /min_odds \(200\) is greater than max_odds \(-200\)/],
    ['state=new%20jersey', /"state"/],
    ['from_seq=-3&resume=true', /"from_seq"/],
    ['resume=yes', /"resume"/],
    ['min_ev=lots', /min_ev/],
    ['sport=curling_on_mars', /sport/],
    ['channels=odds,everything', /channels/],
    ['last_event_id=123-4', /client_profile=spec/],
    ['colour=blue', /Unknown parameter "colour"/],
    ['client_profile=python', /client_profile/],
  ])('%s: an error message naming the problem, then close 4000', async (query, text) => {
    const key = await t.newKey('sharp');
    const c = ws(key, `&${query}`);
    const err = await c.seen('error');
    expect(err.code).toBe('invalid_filter');
    expect(err.message).toMatch(text);
    expect(await c.closed).toEqual({ code: 4000, reason: 'invalid_filter' });
    expect(c.of('initial')).toEqual([]);
    expect(c.violations).toEqual([]);
  });

  it('auth failures are error messages and close codes (4001, 4003) in the same envelope', async () => {
    const bad = ws('sk_nope_000000000');
    expect(await bad.seen('error')).toMatchObject({ seq: 1, code: 'unauthorized' });
    expect((await bad.closed).code).toBe(4001);
    const free = ws(await t.newKey('free'));
    expect(await free.seen('error')).toMatchObject({ code: 'tier_restricted' });
    expect((await free.closed).code).toBe(4003);
    expect([...bad.violations, ...free.violations]).toEqual([]);
  });

  it('client_profile=spec (or X-Client-Profile: spec) keeps the {type, seq, timestamp, data} frames and waits for subscribe', async () => {
    const key = await t.newKey('sharp');
    for (const [query, headers] of [
      ['&client_profile=spec', {}],
      ['', { 'X-Client-Profile': 'spec' }],
    ] as const) {
      const sock = new WsClient(`${t.url.replace('http', 'ws')}/api/v1/ws?api_key=${key}${query}`, { headers });
      await sock.opened();
      await new Promise((r) => setTimeout(r, 300));
      expect(sock.frames.map((f) => f.type)).toEqual(['connected']);
      expect(sock.frames[0]).toMatchObject({ seq: expect.stringMatching(/^\d+-c$/), data: { tier: 'sharp', channels: null } });
      sock.send({ type: 'subscribe', channels: ['odds'] });
      await sock.seen('snapshot:complete');
      expect(sock.frames.find((f) => f.type === 'snapshot')!.data.odds.length).toBeGreaterThan(0);
      sock.close();
    }
  });
});
