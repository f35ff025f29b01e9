import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The official clients in CI: every REST call the public TypeScript client makes, with the path,
 * method, body and query form it sends (`X-API-Key` and `Content-Type: application/json` on every request,
 * POSTs without a body where it sends none), against the running app; each response is checked against the
 * shape that client (and the Python client's validation) reads. Written from the contract; the
 * client is not vendored.
 */
const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T18:00:00Z');
type J = Record<string, any>;

function quotes(): Quote[] {
  const q = (book: string, over: Partial<Quote>): Quote => ({
    book,
    league: 'nfl',
    homeTeam: 'Kansas City Chiefs',
    awayTeam: 'Buffalo Bills',
    startTime: KICK,
    marketType: 'moneyline',
    selection: 'Kansas City Chiefs',
    selectionType: 'home',
    line: null,
    price: { american: -110 },
    ...over,
  });
  const ml = (book: string, h: number, a: number) => [
    q(book, { price: { american: h } }),
    q(book, { selection: 'Buffalo Bills', selectionType: 'away', price: { american: a } }),
  ];
  const spread = (book: string, line: number) => [
    q(book, { marketType: 'point_spread', line }),
    q(book, { marketType: 'point_spread', selection: 'Buffalo Bills', selectionType: 'away', line: -line }),
  ];
  const champ = {
    market: 'championship_winner_2027',
    name: 'NFL Championship winner 2027',
    type: 'TEAM' as const,
    kind: 'championship_winner',
  };
  const fut = (book: string, selection: string, decimal: number): Quote => ({
    book,
    league: 'nfl',
    homeTeam: '',
    awayTeam: '',
    startTime: Date.parse('2027-02-14T00:00:00Z'),
    marketType: 'championship_winner',
    selection,
    selectionType: 'other',
    line: null,
    price: { decimal },
    future: champ,
  });
  return [
    fut('pinnacle', 'Kansas City Chiefs', 4.2),
    fut('pinnacle', 'Buffalo Bills', 5.5),
    fut('draftkings', 'Kansas City Chiefs', 4),
    fut('draftkings', 'Buffalo Bills', 6),
    ...ml('draftkings', 110, -130),
    ...ml('fanduel', -125, 104),
    ...ml('pinnacle', -105, -105),
    ...spread('draftkings', -2.5),
    ...spread('fanduel', -7.5),
  ];
}

/** What the clients read, as predicates: each names what is missing or wrong. */
const str = (v: unknown) => typeof v === 'string';
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const bool = (v: unknown) => typeof v === 'boolean';
function need(o: J, fields: Record<string, (v: unknown) => boolean>, where: string): void {
  for (const [f, ok] of Object.entries(fields)) expect([where, f, ok(o?.[f])]).toEqual([where, f, true]);
}

const ODDS_ROW = {
  id: str,
  sportsbook: str,
  event_id: str,
  event_uuid: str,
  sport: str,
  league: str,
  home_team: str,
  away_team: str,
  market_type: str,
  selection: str,
  selection_type: str,
  odds_american: num,
  odds_decimal: num,
  probability: num,
  event_start_time: str,
  is_live: bool,
  timestamp: str,
};
const SPORT = { id: str, name: str, slug: str, active: bool };
const LEAGUE = { id: str, name: str, sport: str, slug: str, active: bool };
const BOOK = { id: str, name: str, slug: str, active: bool };
const EVENT = { id: str, sport: str, league: str, home_team: str, away_team: str, start_time: str };
const EV = {
  id: str,
  sport: str,
  league: str,
  selection: str,
  sportsbook: str,
  odds_american: num,
  odds_decimal: num,
  ev_percentage: num,
  player_id: (v: unknown) => v === null || str(v),
};
const ARB = {
  id: str,
  event_name: str,
  sport: str,
  market_type: str,
  profit_percent: num,
  estimated_net_profit_percent: (v: unknown) => v === null || num(v),
  legs: Array.isArray,
};
const LEG = { sportsbook: str, selection: str, odds_american: num, odds_decimal: num, stake_percent: num };
const MIDDLE = {
  id: str,
  event_name: str,
  sport: str,
  market_type: str,
  middle_numbers: Array.isArray,
  key_numbers: Array.isArray,
  is_team_total: bool,
  alt_side1: (v: unknown) => v === null || Array.isArray(v),
  alt_side2: (v: unknown) => v === null || Array.isArray(v),
};
const SIDE = { book: str, selection: str, line: num };
const SIDE_ODDS = { american: num, decimal: num, probability: num };
const KEY = { id: str, id_masked: str, tier: str, is_active: bool, created_at: str, updated_at: str };

describe('SDK contract: every REST call of the public TypeScript client', () => {
  let t: TestApp;
  let eventId = '';

  /** A request as the TypeScript client sends it. */
  async function sdk(
    method: string,
    path: string,
    opts: { query?: Record<string, string | number | boolean>; body?: unknown; key?: string } = {},
  ) {
    const qs = opts.query
      ? `?${new URLSearchParams(Object.entries(opts.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
      : '';
    const res = await fetch(`${t.url}/api/v1${path}${qs}`, {
      method,
      headers: { 'X-API-Key': opts.key ?? KEYS.sharp, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const json = (await res.json()) as J;
    expect([method, path, res.status, json?.error?.message]).toEqual([
      method,
      path,
      method === 'POST' && path === '/account/keys' ? 201 : 200,
      undefined,
    ]);
    // Envelope rules both clients rely on: success, updated_at, and meta.pagination complete when present.
    expect(json.success).toBe(true);
    expect(typeof json.updated_at).toBe('string');
    if (json.meta?.pagination) need(json.meta.pagination, { limit: num, offset: num, has_more: bool }, `${path} meta.pagination`);
    return json;
  }
  const each = (list: J[], fields: Record<string, (v: unknown) => boolean>, where: string) => {
    expect(list.length).toBeGreaterThan(0);
    for (const x of list) need(x, fields, where);
  };

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    expect(t.app.get(IngestionService).ingest({ source: 'test', quotes: quotes() }, NOW, { backfill: true }).rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  it('sports.list / sports.get', async () => {
    const list = await sdk('GET', '/sports');
    each(list.data, SPORT, 'sport');
    need((await sdk('GET', '/sports/football')).data, SPORT, 'sport');
  });

  it('leagues.list / leagues.get', async () => {
    each((await sdk('GET', '/leagues', { query: { sport: 'football' } })).data, LEAGUE, 'league');
    need((await sdk('GET', '/leagues/nfl')).data, LEAGUE, 'league');
  });

  it('sportsbooks.list / sportsbooks.get', async () => {
    each((await sdk('GET', '/sportsbooks')).data, BOOK, 'sportsbook');
    need((await sdk('GET', '/sportsbooks/draftkings')).data, BOOK, 'sportsbook');
  });

  it('events.list / events.get / events.markets / events.odds', async () => {
    const events = (await sdk('GET', '/events', { query: { league: 'nfl', limit: 10 } })).data as J[];
    each(events, EVENT, 'event');
    eventId = events[0]!.id;
    need((await sdk('GET', `/events/${eventId}`)).data, EVENT, 'event');
    expect((await sdk('GET', `/events/${eventId}/markets`)).data).toEqual(expect.arrayContaining(['moneyline', 'point_spread']));
    each((await sdk('GET', `/events/${eventId}/odds`, { query: { market: 'moneyline' } })).data, ODDS_ROW, 'odds row');
  });

  it('odds.get (sportsbook and add_sportsbook) / odds.best / odds.comparison / odds.batch / odds.delta', async () => {
    const odds = await sdk('GET', '/odds', {
      query: { league: 'nfl', sportsbook: 'draftkings,fanduel', add_sportsbook: 'pinnacle', limit: 100 },
    });
    each(odds.data, ODDS_ROW, 'odds row');
    expect(new Set((odds.data as J[]).map((r) => r.sportsbook))).toEqual(new Set(['draftkings', 'fanduel', 'pinnacle']));
    each((await sdk('GET', '/odds/best', { query: { league: 'nfl', market: 'moneyline' } })).data, ODDS_ROW, 'best row');
    const cmp = (await sdk('GET', '/odds/comparison', { query: { event_id: eventId, market: 'moneyline' } })).data as Record<string, J[]>;
    for (const rows of Object.values(cmp)) each(rows, ODDS_ROW, 'comparison row');
    const batch = (await sdk('POST', '/odds/batch', { body: { event_ids: [eventId] } })).data as Record<string, J[]>;
    each(batch[eventId]!, ODDS_ROW, 'batch row');
    const delta = await sdk('GET', '/odds/delta', { query: { since: new Date(NOW - 60_000).toISOString() } });
    expect(Array.isArray(delta.data)).toBe(true);
  });

  it('ev.get / arbitrage.get / middles.get / middles.get(id) / middles.summary / lowHold.get', async () => {
    each((await sdk('GET', '/opportunities/ev', { query: { min_ev: 0, limit: 50 } })).data, EV, '+EV');
    const arbs = (await sdk('GET', '/opportunities/arbitrage', { query: { min_profit: 0.5 } })).data as J[];
    each(arbs, ARB, 'arbitrage');
    for (const a of arbs) each(a.legs, LEG, 'arbitrage leg');
    const mids = (await sdk('GET', '/opportunities/middles', { query: { sport: 'football' } })).data as J[];
    each(mids, MIDDLE, 'middle');
    for (const m of mids)
      for (const s of [m.side1, m.side2]) {
        need(s, SIDE, 'middle side');
        need(s.odds, SIDE_ODDS, 'middle side odds');
      }
    need((await sdk('GET', `/opportunities/middles/${mids[0]!.id}`)).data, MIDDLE, 'middle by id');
    need(
      (await sdk('GET', '/opportunities/middles/summary')).data,
      { total: num, positive_ev_count: num, by_sport: (v) => typeof v === 'object' },
      'middles summary',
    );
    const lh = await sdk('GET', '/opportunities/low_hold', { query: { max_hold: 5 } });
    expect(Array.isArray(lh.data)).toBe(true);
    for (const x of lh.data as J[]) for (const s of [x.side1, x.side2]) need(s.odds, SIDE_ODDS, 'low-hold side odds');
  });

  it('splits.get', async () => {
    expect(Array.isArray((await sdk('GET', '/splits', { query: { league: 'nfl' } })).data)).toBe(true);
  });

  it('account.me / account.usage', async () => {
    const me = (await sdk('GET', '/account')).data;
    need(
      me,
      {
        key_id: str,
        tier: str,
        rate_limit: (v) => typeof v === 'object',
        streaming: (v) => typeof v === 'object',
        key: (v) => typeof v === 'object',
        limits: (v) => typeof v === 'object',
        add_ons: Array.isArray,
      },
      'account',
    );
    // The Python client validates features as booleans.
    need(me.features, { ev: bool, arbitrage: bool, middles: bool, streaming: bool }, 'account.features');
    need(me.limits, { requests_per_minute: num, max_streams: num, odds_delay_seconds: num, max_books: num }, 'account.limits');
    const usage = (await sdk('GET', '/account/usage')).data;
    need(usage.requests, { today: num, this_week: num, this_month: num }, 'usage.requests');
    need(usage.requests.limit, { per_minute: num, remaining: num, resets_at: str }, 'usage.requests.limit');
    need(usage.streams, { active: num, max: num }, 'usage.streams');
    need(usage.period, { start: str, end: str }, 'usage.period');
  });

  it('keys.list / keys.create / keys.rotate (no body) / keys.revoke', async () => {
    // A sharp account of its own (two keys allowed), so the fixed test keys stay untouched.
    const own = (await t.call('/admin/keys', { method: 'POST', body: { tier: 'sharp' }, headers: { 'X-Admin-Token': t.adminToken } })).json
      .data as J;
    const list = await sdk('GET', '/account/keys', { key: own.key });
    each(list.data, KEY, 'key');
    const created = (await sdk('POST', '/account/keys', { key: own.key, body: { name: 'sdk' } })).data;
    need(created, { ...KEY, key: str, name: str }, 'created key');
    const rotated = (await sdk('POST', `/account/keys/${created.id}/rotate`, { key: own.key })).data;
    // TypeScript reads new_key{id, key, name, tier} and old_key{id, revoked, expires_at}; Python uses new_key.
    need(rotated.new_key, { id: str, key: str, name: str, tier: str }, 'rotate new_key');
    need(rotated.old_key, { id: str, revoked: bool, expires_at: str }, 'rotate old_key');
    expect(rotated.old_key).toMatchObject({ id: created.id, revoked: true });
    const revoked = await sdk('DELETE', `/account/keys/${rotated.new_key.id}`, { key: own.key });
    // TypeScript reads data.deleted / data.key_id / data.message; the documented top-level form too.
    need(revoked.data, { deleted: bool, key_id: str, message: str }, 'revoke data');
    expect(revoked).toMatchObject({ deleted: true, key_id: rotated.new_key.id });
    expect((await sdk('GET', '/account/keys', { key: own.key })).data.map((k: J) => k.id)).toEqual([own.id]);
  });

  it('errors carry error.code and error.message (and required_tier at the top level on 403)', async () => {
    const res = await fetch(`${t.url}/api/v1/opportunities/ev`, {
      headers: { 'X-API-Key': KEYS.free, 'Content-Type': 'application/json' },
    });
    const body = (await res.json()) as J;
    expect(res.status).toBe(403);
    expect(body).toMatchObject({ error: { code: 'tier_restricted', message: expect.any(String) }, required_tier: 'pro' });
  });

  it('gamestate.get / gamestate.bySport (GET /gamestate, /gamestate/{sport}): objects by sport; an add-on refusal names it', async () => {
    const all = (await sdk('GET', '/gamestate', { key: KEYS.enterprise })).data;
    expect(typeof all).toBe('object');
    expect(Array.isArray(all)).toBe(false);
    for (const games of Object.values(all as Record<string, J>)) expect(typeof games).toBe('object');
    expect((await sdk('GET', '/gamestate/FOOTBALL', { key: KEYS.enterprise })).data).toEqual(expect.any(Object));
    expect((await sdk('GET', '/gamestate/curling', { key: KEYS.enterprise })).data).toEqual({});
    const refused = await fetch(`${t.url}/api/v1/gamestate`, { headers: { 'X-API-Key': KEYS.pro, 'Content-Type': 'application/json' } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as J).addon).toBe('game_state');
  });

  it('odds.closing (GET /odds/closing?event_id=, sportsbook csv): the event and its books (none captured before the start)', async () => {
    const closing = (await sdk('GET', '/odds/closing', { query: { event_id: eventId, sportsbook: 'draftkings,fanduel' } })).data;
    need(closing, { event_id: str, sport: str, league: str, home_team: str, away_team: str, event_start_time: str }, 'closing');
    expect(closing.event_id).toBe(eventId);
    expect(closing.books).toEqual({});
  });

  it('futures.list / futures.odds (GET /futures, /futures/odds?future_id=)', async () => {
    const markets = (await sdk('GET', '/futures', { query: { league: 'nfl' } })).data as J[];
    each(
      markets,
      {
        market_id: str,
        display_name: str,
        sport: str,
        league: str,
        future_type: str,
        selection_count: num,
        books_available: Array.isArray,
      },
      'futures market',
    );
    const prices = (await sdk('GET', '/futures/odds', { query: { future_id: markets[0]!.market_id, limit: 50 } })).data as J[];
    each(
      prices,
      {
        selection: str,
        sportsbook: str,
        odds_american: num,
        odds_decimal: num,
        probability: num,
        future_type: str,
        future_market_id: str,
        sport: str,
        league: str,
        timestamp: str,
      },
      'futures price',
    );
    expect(new Set(prices.map((p) => p.sportsbook))).toEqual(new Set(['pinnacle', 'draftkings']));
  });
});
