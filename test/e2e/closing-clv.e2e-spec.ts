import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { EventUpdate, Quote } from '../../src/domain/types.js';
import { ClvService } from '../../src/modules/clv/clv.service.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');
const START = NOW + 3600_000;
const GAME = { league: 'nba', homeTeam: 'Boston Celtics', awayTeam: 'Los Angeles Lakers', startTime: START };
let ID = '';

function ml(book: string, home: number, away: number, isLive = false): Quote[] {
  return [
    {
      ...GAME,
      book,
      marketType: 'moneyline',
      selection: 'Boston Celtics',
      selectionType: 'home',
      line: null,
      price: { american: home },
      isLive,
    },
    {
      ...GAME,
      book,
      marketType: 'moneyline',
      selection: 'Los Angeles Lakers',
      selectionType: 'away',
      line: null,
      price: { american: away },
      isLive,
    },
  ];
}

/**
 * Closing lines and the CLV track record, through the real pipeline: a +EV price at DraftKings (Celtics +120
 * against Pinnacle's -110/-110), Pinnacle moving to -125/+105 before tip-off, the game going live, and a final
 * score. CLV_DEVIG_METHOD=multiplicative so the expectations are worked by hand:
 * entry 2.20; Pinnacle's close 1.80 / 2.05: implied 0.555556 + 0.487805 = 1.043360, Celtics fair 0.532468;
 * CLV = 0.532468 x 2.20 - 1 = +17.1429%. At detection: fair 0.5, EV = 0.5 x 2.2 - 1 = +10%.
 */
describe('closing lines and CLV (end to end)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  let ingestion: IngestionService;

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { CLV_DEVIG_METHOD: 'multiplicative' } });
    ingestion = t.app.get(IngestionService);
    const ev: EventUpdate[] = [{ ...GAME, status: 'upcoming' }];
    ingestion.ingest(
      { source: 'test', quotes: [...ml('pinnacle', -110, -110), ...ml('draftkings', 120, -140), ...ml('fanduel', -105, -115)], events: ev },
      clock.now(),
    );
    clock.advance(60_000);
    ingestion.ingest({ source: 'test', quotes: ml('pinnacle', -125, 105) }, clock.now());
    // Five minutes before the start every book confirms its prices (a close must be confirmed within 30 minutes of it).
    clock.set(START - 300_000);
    ingestion.ingest(
      { source: 'test', quotes: [...ml('pinnacle', -125, 105), ...ml('draftkings', 120, -140), ...ml('fanduel', -105, -115)] },
      clock.now(),
    );
    ID = (await t.call('/events?league=nba', { key: KEYS.pro })).json.data[0].id;
    expect(ID).toMatch(/^nba_celtics_lakers_2026-11-22/);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no closing line before the game starts', async () => {
    const r = await t.call(`/odds/closing?event_id=${ID}`, { key: KEYS.pro });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ event_id: ID, league: 'nba', home_team: 'Boston Celtics', captured_at: null, books: {} });
  });

  it("captures each book's last pre-game prices when the game goes live", async () => {
    clock.set(START + 30_000);
    // Pinnacle and DraftKings flip live with new prices; FanDuel is captured when the event goes live.
    ingestion.ingest(
      {
        source: 'test',
        quotes: [...ml('pinnacle', -200, 170, true), ...ml('draftkings', -210, 160, true)],
        events: [{ ...GAME, status: 'live', gameState: { home_score: 8, away_score: 2, game_period: 'Q1' } }],
      },
      clock.now(),
    );
    const r = await t.call(`/odds/closing?event_id=${ID}&sportsbook=pinnacle,draftkings,fanduel`, { key: KEYS.sharp });
    expect(r.status).toBe(200);
    expect(r.json.data.captured_at).toBe(new Date(START + 30_000).toISOString());
    const prices = (book: string) =>
      Object.fromEntries(r.json.data.books[book].map((l: any) => [l.selection_type, [l.odds_american, l.odds_decimal]]));
    expect(prices('pinnacle')).toEqual({ home: [-125, 1.8], away: [105, 2.05] });
    expect(prices('draftkings')).toEqual({ home: [120, 2.2], away: [-140, 1.714] });
    expect(prices('fanduel')).toEqual({ home: [-105, 1.952], away: [-115, 1.87] });
    expect(r.json.data.books.pinnacle[0]).toMatchObject({
      sportsbook: 'pinnacle',
      market_type: 'moneyline',
      period: 'game',
      selection: 'Boston Celtics',
    });
    // Later live prices do not replace the close.
    clock.advance(60_000);
    ingestion.ingest({ source: 'test', quotes: ml('pinnacle', -300, 240, true) }, clock.now());
    const again = await t.call(`/odds/closing?event=${ID}&books=pinnacle`, { key: KEYS.sharp });
    expect(Object.keys(again.json.data.books)).toEqual(['pinnacle']);
    expect(again.json.data.books.pinnacle.map((l: any) => l.odds_american).sort()).toEqual([-125, 105]);
  });

  it('is for pro and up, needs event_id, and 404s an unknown event', async () => {
    const free = await t.call(`/odds/closing?event_id=${ID}`, { key: KEYS.hobby });
    expect(free.status).toBe(403);
    expect(free.json.error.code).toBe('tier_restricted');
    expect(free.json.required_tier).toBe('pro');
    const missing = await t.call('/odds/closing', { key: KEYS.pro });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/event_id/);
    expect((await t.call('/odds/closing?event_id=nba_x_y_2026-01-01_b1', { key: KEYS.pro })).status).toBe(404);
    expect((await t.call(`/odds/closing?event_id=${ID}&sportsbook=nowhere`, { key: KEYS.pro })).status).toBe(400);
  });

  it('records the +EV detection, values it at the close and grades it at the final score', async () => {
    clock.set(START + 3 * 3600_000);
    ingestion.ingest(
      {
        source: 'test',
        quotes: [],
        events: [{ ...GAME, status: 'ended', gameState: { home_score: 112, away_score: 104, game_period: 'F' } }],
      },
      clock.now(),
    );
    await t.app.get(ClvService).settle();
    const r = await t.call('/historical/clv', { key: KEYS.enterprise });
    expect(r.status).toBe(200);
    expect(r.json.data.group_by).toBe('sportsbook');
    expect(r.json.data.devig_method).toBe('multiplicative');
    const dk = r.json.data.groups.find((g: any) => g.group_key === 'draftkings');
    expect(dk).toMatchObject({
      total_predictions: 1,
      total_graded: 1,
      wins: 1,
      losses: 0,
      win_rate: 1,
      clv_count: 1,
      beat_close: 1,
      avg_ev_percent: 10,
      units: 1.2,
      roi_percent: 120,
    });
    expect(dk.avg_clv_percent).toBeCloseTo(17.1429, 3);
    // Pinnacle's move to -125/+105 made FanDuel's Celtics -105 +EV (the board keeps decimals to 4 places: 1.9524):
    // fair 0.532468 x 1.9524 - 1 = +3.9590%; the close is the same line, so its CLV is the same. The Celtics won.
    const fd = r.json.data.groups.find((g: any) => g.group_key === 'fanduel');
    expect(fd).toMatchObject({ total_predictions: 1, wins: 1, losses: 0, clv_count: 1, beat_close: 1 });
    expect(fd.avg_ev_percent).toBeCloseTo(3.959, 3);
    expect(fd.avg_clv_percent).toBeCloseTo(3.959, 3);
    // Sportsbooks charge nothing (config/costs.json): the net CLV is the gross one, for both books.
    for (const g of [dk, fd]) expect([g.net_clv_count, g.avg_net_clv_percent]).toEqual([1, g.avg_clv_percent]);
    expect(fd.units).toBeCloseTo(0.9524, 4);
    expect(r.json.data.overall).toMatchObject({ total_predictions: 2, total_graded: 2, wins: 2 });
    const byLeague = await t.call('/historical/clv?group_by=league&league=nba&from=2026-11-22', { key: KEYS.enterprise });
    expect(byLeague.json.data.groups.map((g: any) => g.group_key)).toEqual(['nba']);
    const byDevig = await t.call('/historical/clv?group_by=devig_book', { key: KEYS.enterprise });
    expect(byDevig.json.data.groups.map((g: any) => g.group_key)).toEqual(['pinnacle']);
    const other = await t.call('/historical/clv?sport=hockey', { key: KEYS.enterprise });
    expect(other.json.data.groups).toEqual([]);
  });

  it('applies the tier window and refuses bad parameters', async () => {
    const free = await t.call('/historical/clv?from=2026-01-01', { key: KEYS.free });
    expect(free.status).toBe(200);
    expect(free.json.meta).toMatchObject({ tier_window_days: 7, window_clamped: true });
    expect(free.json.data.date_range.from).toBe(new Date(clock.now() - 7 * 86_400_000).toISOString());
    const ent = await t.call('/historical/clv?from=2026-01-01', { key: KEYS.enterprise });
    expect(ent.json.meta).toMatchObject({ tier_window_days: null, window_clamped: false });
    for (const bad of ['group_by=team', 'from=yesterday', 'from=2026-11-23&to=2026-11-22', 'league=quidditch', 'devig_book=nobody']) {
      const r = await t.call(`/historical/clv?${bad}`, { key: KEYS.pro });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_request');
    }
  });
});
