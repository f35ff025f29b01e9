import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SseRecorder } from '../support/sse.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T20:00:00Z');
const LIVE = { league: 'nba', homeTeam: 'Denver Nuggets', awayTeam: 'Phoenix Suns', startTime: NOW - 3600_000 };
const LATER = { league: 'nhl', homeTeam: 'Toronto Maple Leafs', awayTeam: 'Montreal Canadiens', startTime: NOW + 3600_000 };

const ml = (g: typeof LIVE, book: string, isLive: boolean): Quote[] => [
  { ...g, book, marketType: 'moneyline', selection: g.homeTeam, selectionType: 'home', line: null, price: { american: -150 }, isLive },
  { ...g, book, marketType: 'moneyline', selection: g.awayTeam, selectionType: 'away', line: null, price: { american: 130 }, isLive },
];

describe('game state (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  let ingestion: IngestionService;
  let id = '';
  const open: SseRecorder[] = [];

  beforeAll(async () => {
    t = await startTestApp({ clock });
    ingestion = t.app.get(IngestionService);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [...ml(LIVE, 'draftkings', true), ...ml(LIVE, 'pinnacle', true), ...ml(LATER, 'draftkings', false)],
        events: [
          {
            ...LIVE,
            status: 'live',
            book: 'draftkings',
            gameState: { home_score: 55, away_score: 50, game_period: 'Q3', game_clock: '7:12', possession: 'away' },
          },
          {
            ...LIVE,
            status: 'live',
            book: 'pinnacle',
            gameState: { home_score: 55, away_score: 50, game_period: 'Q3', game_clock: '6:58', possession: 'home' },
          },
          {
            ...LIVE,
            status: 'live',
            book: 'fanduel',
            gameState: { home_score: 53, away_score: 50, game_period: 'Q2', game_clock: '0:10' },
          },
        ],
      },
      clock.now(),
    );
    id = (await t.call('/events?league=nba', { key: KEYS.pro })).json.data[0].id;
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t.close();
  });

  it('serves live games by sport with the merged state', async () => {
    const r = await t.call('/gamestate', { key: KEYS.enterprise });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.data)).toEqual(['basketball']);
    // Q3 is the furthest period; 55-50 agreed by two books; the countdown clock furthest along (6:58); the
    // situational fields from the primary (the last report at Q3: pinnacle, listed after draftkings).
    expect(r.json.data.basketball[id]).toEqual({
      home_team: 'Denver Nuggets',
      away_team: 'Phoenix Suns',
      sport: 'basketball',
      league: 'nba',
      home_score: 55,
      away_score: 50,
      is_live: true,
      primary_book: expect.any(String),
      book_count: 2,
      game_period: 'Q3',
      game_clock: '6:58',
      possession: expect.any(String),
      source_count: 3,
      updated_at: new Date(NOW).toISOString(),
      reported_at: new Date(NOW).toISOString(),
    });
    expect((await t.call('/gamestate/BASKETBALL', { key: KEYS.enterprise })).json.data).toEqual(r.json.data);
    expect((await t.call('/gamestate/hockey', { key: KEYS.enterprise })).json.data).toEqual({});
    expect((await t.call('/gamestate/quidditch', { key: KEYS.enterprise })).json.data).toEqual({});
  });

  it('is enterprise or the game_state add-on: 403 names the add-on', async () => {
    const r = await t.call('/gamestate', { key: KEYS.sharp });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ error: { code: 'tier_restricted' }, required_tier: 'enterprise', addon: 'game_state' });
    expect((await t.call('/gamestate/basketball', { key: KEYS.pro })).json.addon).toBe('game_state');
  });

  it('events carry game_state: the same object live, null otherwise', async () => {
    const r = await t.call('/events?sport=basketball,hockey', { key: KEYS.pro });
    const byLeague = Object.fromEntries(r.json.data.map((e: any) => [e.league, e.game_state]));
    const gs = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    expect(byLeague.nba).toEqual(gs);
    expect(byLeague.nhl).toBeNull();
  });

  it('flags stale and aggregator_stale only when true', async () => {
    clock.advance(11_000);
    let gs = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    expect(gs.stale).toBe(true);
    expect('aggregator_stale' in gs).toBe(false);
    clock.advance(20_000);
    gs = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    expect(gs).toMatchObject({ stale: true, aggregator_stale: true });
    ingestion.ingest(
      {
        source: 'test',
        quotes: [],
        events: [{ ...LIVE, book: 'pinnacle', gameState: { home_score: 57, away_score: 50, game_period: 'Q3', game_clock: '6:30' } }],
      },
      clock.now(),
    );
    gs = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    // The two older reports are still within two minutes; pinnacle alone at 57-50 is the primary (no two agree).
    expect(gs).toMatchObject({ home_score: 57, away_score: 50, game_clock: '6:30', primary_book: 'pinnacle' });
    expect(gs.stale).toBeUndefined();
  });

  it('streams the same objects on the gamestate channel', async () => {
    const s = new SseRecorder(`${t.url}/api/v1/stream?channel=gamestate&api_key=${KEYS.enterprise}`);
    open.push(s);
    const snap = await s.seen('gamestate:snapshot');
    const now = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    expect(snap.data.events[id]).toEqual(now);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [],
        events: [{ ...LIVE, book: 'pinnacle', gameState: { home_score: 60, away_score: 50, game_period: 'Q3', game_clock: '5:00' } }],
      },
      clock.now(),
    );
    const up = await s.next('gamestate:update');
    const after = (await t.call('/gamestate', { key: KEYS.enterprise })).json.data.basketball[id];
    expect(up.data).toEqual({ event_id: id, status: 'live', ...after });
    const sharp = await fetch(`${t.url}/api/v1/stream/gamestate?api_key=${KEYS.sharp}`);
    expect(sharp.status).toBe(403);
    expect(((await sharp.json()) as { addon?: string }).addon).toBe('game_state');
  });
});
