import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { DetectionEngine } from '../../src/modules/detection/detection.engine.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { SseRecorder } from '../support/sse.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { CELTICS_TEAM } from '../factories/quotes.js';

/**
 * The Python clients' models (sharpapi 0.2.6 and 0.4.1, src/sharpapi/models.py) applied to real answers, and the
 * current line's fields worked out by hand.
 *
 * The models are written here as pydantic reads them: a field without a default is required; `X | None = None`
 * may be absent or null; a field with another default (`is_live: bool = False`) may be absent but not null; `str`
 * takes a string only, `int` an integral number, `float` and `int | float` any number, `bool` a boolean; a nested
 * model an object; unknown keys are ignored.
 *
 * The board (NOW = 2026-11-22T12:00Z):
 *  - Celtics (home) v Knicks, NBA: moneylines at DraftKings and FanDuel; a DraftKings game total 220.5; a DraftKings
 *    Celtics team total 112.5 (`Over`, the team named apart, as The Odds API sends it); a FanDuel first-half spread
 *    (period 1h) and a first-quarter market (`1st_quarter`); a DraftKings moneyline in period `ot` (no segment).
 *  - Arsenal (home) v Chelsea, EPL: result-and-total selections `home_over`, `draw_under` and double chance
 *    `home_draw`.
 *  - Chiefs v Bills, NFL: DraftKings -2.5 and FanDuel -7.5 at -110, a middle.
 *  - Pinnacle's Celtics price, sent with the book's own change time 30 minutes earlier.
 * Then, one at a time: FanDuel re-sends the Celtics price unchanged at NOW+10 s; FanDuel confirms its whole feed at
 * NOW+30 s; DraftKings suspends the Knicks moneyline at NOW+40 s sending +900 instead of its +120.
 */

type J = Record<string, any>;
type Scalar = 'str' | 'int' | 'float' | 'num' | 'bool';
/** `T` required, `T?` = `T | None = None`, `T=` a non-None default (absent allowed, null not). */
type Spec = string | { model: Model; opt?: boolean } | { list: Scalar | Model; opt?: boolean };
type Model = Record<string, Spec>;

function scalarOk(t: Scalar, v: unknown): boolean {
  switch (t) {
    case 'str':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'float':
    case 'num':
      return typeof v === 'number' && Number.isFinite(v);
    case 'bool':
      return typeof v === 'boolean';
  }
}

/** What pydantic would refuse in `v` as model `m` (empty: it validates). */
function problems(m: Model, v: unknown, at = '$'): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return [`${at}: not an object`];
  const o = v as J;
  const out: string[] = [];
  for (const [k, spec] of Object.entries(m)) {
    const path = `${at}.${k}`;
    const present = k in o;
    if (typeof spec === 'string') {
      const t = spec.replace(/[?=]$/, '') as Scalar;
      const optional = spec.endsWith('?') || spec.endsWith('=');
      if (!present) {
        if (!optional) out.push(`${path}: required`);
      } else if (o[k] === null) {
        if (!spec.endsWith('?')) out.push(`${path}: null`);
      } else if (!scalarOk(t, o[k])) out.push(`${path}: not ${t} (${JSON.stringify(o[k])})`);
      continue;
    }
    if (!present || o[k] === null) {
      if (!spec.opt) out.push(`${path}: required`);
      continue;
    }
    if ('model' in spec) out.push(...problems(spec.model, o[k], path));
    else if (!Array.isArray(o[k])) out.push(`${path}: not a list`);
    else
      (o[k] as unknown[]).forEach((x, i) => {
        if (typeof spec.list === 'string') {
          if (!scalarOk(spec.list, x)) out.push(`${path}[${i}]: not ${spec.list}`);
        } else out.push(...problems(spec.list, x, `${path}[${i}]`));
      });
  }
  return out;
}

// ---- sharpapi 0.4.1
const TeamRef: Model = {
  id: 'str?',
  numerical_id: 'int?',
  name: 'str?',
  abbreviation: 'str?',
  logo: 'str?',
  city: 'str?',
  mascot: 'str?',
  conference: 'str?',
  division: 'str?',
};
const SportRef: Model = { id: 'str?', name: 'str?', numerical_id: 'int?' };
const EntityRef: Model = { id: 'str?', label: 'str?', numerical_id: 'int?' };
const OddsLine026: Model = {
  id: 'str',
  sportsbook: 'str',
  sportsbook_name: 'str?',
  event_id: 'str',
  sport: 'str',
  league: 'str',
  home_team: 'str',
  away_team: 'str',
  market_type: 'str',
  selection: 'str',
  selection_type: 'str?',
  odds_american: 'num',
  odds_decimal: 'float',
  probability: 'float',
  line: 'float?',
  event_start_time: 'str?',
  timestamp: 'str?',
  is_live: 'bool=',
  deep_link: 'str?',
  player_name: 'str?',
  stat_category: 'str?',
};
const OddsLine041: Model = {
  ...OddsLine026,
  team_side: 'str?',
  market_segment: 'str?',
  is_active: 'bool=',
  home: { model: TeamRef, opt: true },
  away: { model: TeamRef, opt: true },
  sport_ref: { model: SportRef, opt: true },
  league_ref: { model: EntityRef, opt: true },
  market_ref: { model: EntityRef, opt: true },
  sportsbook_ref: { model: EntityRef, opt: true },
};
const Event041: Model = {
  id: 'str',
  sport: 'str',
  league: 'str',
  home_team: 'str',
  away_team: 'str',
  start_time: 'str?',
  is_live: 'bool=',
  status: 'str?',
  home: { model: TeamRef, opt: true },
  away: { model: TeamRef, opt: true },
  sport_ref: { model: SportRef, opt: true },
  league_ref: { model: EntityRef, opt: true },
};
const OddsValue: Model = { american: 'num', decimal: 'float', probability: 'float' };
const MiddleSide026: Model = {
  book: 'str',
  selection: 'str',
  line: 'float',
  odds: { model: OddsValue },
  stake_percent: 'float?',
  odds_age_seconds: 'float?',
  deep_link: 'str?',
};
const MiddleSide041: Model = {
  book: 'str',
  selection: 'str',
  line: 'float',
  odds_american: 'num',
  odds_decimal: 'float',
  odds_probability: 'float?',
  fair_probability: 'float?',
  stake_percent: 'float?',
  odds_age_seconds: 'float?',
  external_event_id: 'str?',
  market_id: 'str?',
  selection_id: 'str?',
  deep_link: 'str?',
};
const ArbitrageLeg: Model = {
  sportsbook: 'str',
  selection: 'str',
  odds_american: 'num',
  odds_decimal: 'float',
  implied_probability: 'float?',
  stake_percent: 'float',
  timestamp: 'str?',
};
const middleOpportunity = (side: Model): Model => ({
  id: 'str',
  event_id: 'str?',
  event_name: 'str',
  sport: 'str',
  league: 'str?',
  market_type: 'str',
  home_team: 'str?',
  away_team: 'str?',
  start_time: 'str?',
  side1: { model: side, opt: true },
  side2: { model: side, opt: true },
  middle_size: 'float?',
  middle_numbers: { list: 'int', opt: true },
  middle_probability: 'float?',
  expected_value: 'float?',
  roi_percentage: 'float?',
  worst_case_loss: 'float?',
  best_case_profit: 'float?',
  break_even_percent: 'float?',
  is_guaranteed_profit: 'bool=',
  guaranteed_roi: 'float?',
  key_numbers: { list: 'int', opt: true },
  key_number_probability: 'float?',
  quality_score: 'float?',
  market_overround: 'float?',
  is_live: 'bool=',
  is_player_prop: 'bool=',
  player_name: 'str?',
  stat_category: 'str?',
  odds_age_seconds: 'float?',
  warnings: { list: 'str', opt: true },
  detected_at: 'str?',
  legs: { list: ArbitrageLeg, opt: true },
});
const MiddleOpportunity026 = middleOpportunity(MiddleSide026);
const MiddleOpportunity041: Model = {
  ...middleOpportunity(MiddleSide041),
  home: { model: TeamRef, opt: true },
  away: { model: TeamRef, opt: true },
  sport_ref: { model: SportRef, opt: true },
  league_ref: { model: EntityRef, opt: true },
  market_ref: { model: EntityRef, opt: true },
};

const NOW = Date.parse('2026-11-22T12:00:00Z');
const KICK = Date.parse('2026-11-23T00:30:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const C = ['Boston Celtics', 'New York Knicks'] as const;

function q(over: Partial<Quote>): Quote {
  return {
    book: 'draftkings',
    league: 'nba',
    homeTeam: C[0],
    awayTeam: C[1],
    startTime: KICK,
    marketType: 'moneyline',
    selection: C[0],
    selectionType: 'home',
    line: null,
    price: { american: -140 },
    ...over,
  };
}
const epl = (over: Partial<Quote>): Quote =>
  q({ league: 'epl', homeTeam: 'Arsenal', awayTeam: 'Chelsea', marketType: 'match_result_total_goals', line: 2.5, ...over });
const nfl = (book: string, line: number): Quote[] =>
  [
    q({ book, league: 'nfl', homeTeam: 'Kansas City Chiefs', awayTeam: 'Buffalo Bills', selection: 'Kansas City Chiefs' }),
    q({
      book,
      league: 'nfl',
      homeTeam: 'Kansas City Chiefs',
      awayTeam: 'Buffalo Bills',
      selection: 'Buffalo Bills',
      selectionType: 'away',
    }),
  ].map((x) => ({ ...x, marketType: 'point_spread', line: x.selectionType === 'home' ? line : -line, price: { american: -110 } }));

const FD_CELTICS = q({ book: 'fanduel', price: { american: -135 } });
const DK_KNICKS = q({ selection: C[1], selectionType: 'away', price: { american: 120 } });

function board(): Quote[] {
  return [
    q({}),
    DK_KNICKS,
    FD_CELTICS,
    q({ book: 'fanduel', selection: C[1], selectionType: 'away', price: { american: 115 } }),
    q({ book: 'pinnacle', price: { american: -138 }, sourceTime: NOW - 30 * 60_000 }),
    q({ marketType: 'total_points', selection: 'Over', selectionType: 'over', line: 220.5, price: { american: -110 } }),
    q({ marketType: 'total_points', selection: 'Under', selectionType: 'under', line: 220.5, price: { american: -110 } }),
    q({ marketType: 'team_total', selection: 'Over', selectionType: 'over', line: 112.5, playerName: C[0], price: { american: -115 } }),
    q({ book: 'fanduel', marketType: 'point_spread', period: '1h', line: -2.5, price: { american: -110 } }),
    q({ book: 'fanduel', marketType: 'point_spread', period: '1h', selection: C[1], selectionType: 'away', line: 2.5 }),
    q({ book: 'fanduel', marketType: '1st_quarter', price: { american: -125 } }),
    q({ period: 'ot', price: { american: 300 } }),
    epl({ selection: 'Arsenal & Over 2.5', selectionType: 'home_over', price: { american: 250 } }),
    epl({ selection: 'Draw & Under 2.5', selectionType: 'draw_under', price: { american: 450 } }),
    epl({ marketType: 'double_chance', selection: 'Arsenal or Draw', selectionType: 'home_draw', line: null, price: { american: -300 } }),
    ...nfl('draftkings', -2.5),
    ...nfl('fanduel', -7.5),
  ];
}

describe("the Python clients' models and the current line's fields (end to end)", () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const get = async (path: string): Promise<J> => {
    const r = await t.call(path, { key: KEYS.sharp });
    expect([path, r.status]).toEqual([path, 200]);
    return r.json as J;
  };
  const rows = async (query: string): Promise<J[]> => (await get(`/odds?limit=500&${query}`)).data as J[];
  const find = (list: J[], p: (r: J) => boolean): J => {
    const hits = list.filter(p);
    expect(hits).toHaveLength(1);
    return hits[0]!;
  };
  let ingestion: IngestionService;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    ingestion = t.app.get(IngestionService);
    const r = ingestion.ingest({ source: 'test', quotes: board() }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
  });
  afterAll(async () => {
    await t.close();
  });

  it('the pydantic-like check refuses what pydantic refuses', () => {
    const ok = { id: 'a', sportsbook: 'b', event_id: 'c', sport: 'd', league: 'e', home_team: 'f', away_team: 'g' };
    const row = { ...ok, market_type: 'h', selection: 'i', odds_american: -110, odds_decimal: 1.91, probability: 0.52 };
    expect(problems(OddsLine041, row)).toEqual([]);
    const { odds_decimal: _dropped, ...noDecimal } = row;
    expect(problems(OddsLine041, noDecimal)).toEqual(['$.odds_decimal: required']);
    expect(problems(OddsLine041, { ...row, is_active: null })).toEqual(['$.is_active: null']);
    expect(problems(OddsLine041, { ...row, team_side: 3 })).toEqual(['$.team_side: not str (3)']);
    expect(problems(OddsLine041, { ...row, home: { numerical_id: 1.5 } })).toEqual(['$.home.numerical_id: not int (1.5)']);
    expect(problems(MiddleSide026, { book: 'b', selection: 's', line: 1, odds_american: -110, odds_decimal: 1.9 })).toEqual([
      '$.odds: required',
    ]);
    expect(
      problems(MiddleSide041, { book: 'b', selection: 's', line: 1, odds: { american: -110, decimal: 1.9, probability: 0.5 } }),
    ).toEqual(['$.odds_american: required', '$.odds_decimal: required']);
  });

  it('every odds row of /odds, /odds/best, /odds/delta and /events/{id}/odds validates as OddsLine 0.2.6 and 0.4.1', async () => {
    const all = await rows('');
    expect(all.length).toBe(board().length);
    const best = (await get('/odds/best?limit=200')).data as J[];
    const delta = (await get(`/odds/delta?since=${iso(NOW - 1000)}&limit=500`)).data as J[];
    const ev = all[0]!.event_id as string;
    const perEvent = (await get(`/events/${ev}/odds`)).data as J[];
    for (const list of [all, best, delta, perEvent]) {
      expect(list.length).toBeGreaterThan(0);
      for (const r of list) {
        expect([r.id, problems(OddsLine026, r)]).toEqual([r.id, []]);
        expect([r.id, problems(OddsLine041, r)]).toEqual([r.id, []]);
      }
    }
    for (const e of (await get('/events?limit=50')).data as J[]) expect([e.id, problems(Event041, e)]).toEqual([e.id, []]);
  });

  it('team_side: the team axis of the selection, absent when there is none', async () => {
    const all = await rows('');
    const side = (p: (r: J) => boolean) => {
      const r = find(all, p);
      return 'team_side' in r ? r.team_side : 'absent';
    };
    expect(side((r) => r.selection_type === 'home_over')).toBe('home');
    expect(side((r) => r.selection_type === 'draw_under')).toBe('draw');
    expect(side((r) => r.selection_type === 'home_draw')).toBe('absent');
    expect(side((r) => r.sportsbook === 'draftkings' && r.market_type === 'moneyline' && r.selection_type === 'away')).toBe('away');
    expect(side((r) => r.sportsbook === 'pinnacle')).toBe('home');
    expect(side((r) => r.market_type === 'total_points' && r.selection_type === 'over')).toBe('absent');
    // The Celtics team total: `Over`, the team named apart.
    expect(side((r) => r.market_type === 'team_total')).toBe('home');
    // `fields` selects it; a row without one has no such key.
    const projected = await rows('fields=id,selection_type,team_side&league=epl');
    expect(projected.map((r) => [r.selection_type, r.team_side]).sort()).toEqual([
      ['draw_under', 'draw'],
      ['home_draw', undefined],
      ['home_over', 'home'],
    ]);
  });

  it('market_segment: the slice of the game the market settles on', async () => {
    const all = await rows('');
    const seg = (p: (r: J) => boolean) => {
      const r = find(all, p);
      return 'market_segment' in r ? r.market_segment : 'absent';
    };
    expect(seg((r) => r.market_type === 'point_spread' && r.period === '1h' && r.selection_type === 'home')).toBe('1st_half');
    expect(seg((r) => r.market_type === '1st_quarter')).toBe('1st_quarter');
    expect(seg((r) => r.sportsbook === 'fanduel' && r.market_type === 'moneyline' && r.selection_type === 'home')).toBe('full_game');
    expect(seg((r) => r.period === 'ot')).toBe('absent');
  });

  it("team refs carry the catalog's city, mascot, conference and division; keys without a value are left out", async () => {
    const all = await rows('');
    const celtics = find(all, (r) => r.sportsbook === 'fanduel' && r.market_type === 'moneyline' && r.selection_type === 'home');
    expect(celtics.home).toEqual(CELTICS_TEAM);
    expect(celtics.away).toMatchObject({ name: 'New York Knicks', city: 'New York', conference: 'Eastern', division: 'Atlantic' });
    const arsenal = find(all, (r) => r.selection_type === 'home_over');
    expect(arsenal.home).toEqual({
      id: 'arsenal',
      numerical_id: 125,
      name: 'Arsenal',
      abbreviation: 'ARS',
      city: 'London',
      mascot: 'Gunners',
    });
    // No source gives logos: none is made up.
    expect(all.some((r) => 'logo' in (r.home ?? {}) || 'logo' in (r.away ?? {}))).toBe(false);
  });

  it("middles: each side's flat odds equal its nested odds; both Python lines validate the same payload", async () => {
    const mids = (await get('/opportunities/middles?limit=200')).data as J[];
    const m = find(mids, (x) => x.market_type === 'point_spread' && x.league === 'nfl');
    for (const side of [m.side1, m.side2]) {
      expect(side.odds_american).toBe(side.odds.american);
      expect(side.odds_decimal).toBe(side.odds.decimal);
      expect(side.odds_probability).toBe(side.odds.probability);
      expect(side.fair_probability).toBe(side.odds.fair_probability);
      expect(side.odds_american).toBe(-110);
      expect(side.odds_probability).toBeCloseTo(1 / side.odds_decimal, 5);
    }
    expect(m.home).toMatchObject({ name: 'Kansas City Chiefs', conference: 'AFC', division: 'AFC West' });
    expect(m.away).toMatchObject({ name: 'Buffalo Bills', conference: 'AFC', division: 'AFC East' });
    for (const x of mids) {
      expect([x.id, problems(MiddleOpportunity026, x)]).toEqual([x.id, []]);
      expect([x.id, problems(MiddleOpportunity041, x)]).toEqual([x.id, []]);
    }
    // The stream's middles come from the same presenter.
    const sse = new SseRecorder(`${t.url}/api/v1/stream?channel=opportunities&api_key=${KEYS.sharp}`);
    try {
      await sse.seen('snapshot:complete');
      const streamed = sse
        .of('snapshot')
        .filter((e) => e.data.kind === 'middles')
        .flatMap((e) => e.data.opportunities as J[]);
      const s = find(streamed, (x) => x.id === m.id);
      expect([s.side1, s.side2]).toEqual([m.side1, m.side2].map((side) => ({ ...side, odds_age_seconds: expect.any(Number) })));
      for (const x of streamed) expect([problems(MiddleOpportunity026, x), problems(MiddleOpportunity041, x)]).toEqual([[], []]);
    } finally {
      sse.close();
    }
  });

  describe('timestamp, odds_changed_at, last_seen_at and /odds/delta', () => {
    const stream = () => new SseRecorder(`${t.url}/api/v1/stream?channel=odds&sportsbook=draftkings,fanduel&api_key=${KEYS.sharp}`);
    let sse: SseRecorder;
    let fdId: string;

    beforeAll(async () => {
      sse = stream();
      await sse.seen('snapshot:complete');
      fdId = find(await rows('sportsbook=fanduel'), (r) => r.market_type === 'moneyline' && r.selection_type === 'home').id as string;
    });
    afterAll(() => sse.close());

    const fdRow = async () => find(await rows('sportsbook=fanduel'), (r) => r.id === fdId);

    it("Pinnacle's own change time is odds_changed_at; timestamp is when the pipeline delivered the row", async () => {
      const pin = find(await rows('sportsbook=pinnacle'), () => true);
      expect(pin).toMatchObject({ timestamp: iso(NOW), odds_changed_at: iso(NOW - 30 * 60_000), last_seen_at: iso(NOW) });
      expect(await fdRow()).toMatchObject({ timestamp: iso(NOW), odds_changed_at: iso(NOW), last_seen_at: iso(NOW) });
    });

    it('a row confirmed with the same price: timestamp advances, odds_changed_at stays, delta and detection stay quiet', async () => {
      const engine = t.app.get(DetectionEngine);
      const runs = engine.stats.incrementalRuns;
      await clock.set(NOW + 10_000);
      const r = ingestion.ingest({ source: 'test', quotes: [FD_CELTICS] });
      expect(r).toMatchObject({ changed: 0, unchanged: 1 });
      expect(await fdRow()).toMatchObject({ timestamp: iso(NOW + 10_000), odds_changed_at: iso(NOW), last_seen_at: iso(NOW + 10_000) });
      // No re-evaluation for a confirmation.
      expect(engine.stats.incrementalRuns).toBe(runs);
      // /odds/delta compares with the change: since NOW+5 s, nothing changed.
      const d = await get(`/odds/delta?since=${iso(NOW + 5_000)}`);
      expect(d.data).toEqual([]);
      // Since before the change it is there, its timestamp the confirmation.
      const before = (await get(`/odds/delta?since=${iso(NOW - 1_000)}&sportsbook=fanduel&limit=500`)).data as J[];
      expect(find(before, (x) => x.id === fdId).timestamp).toBe(iso(NOW + 10_000));
    });

    it("a book's whole-feed confirmation advances the timestamp of every row of the book; sort=timestamp follows", async () => {
      await clock.set(NOW + 30_000);
      ingestion.ingest({ source: 'test', quotes: [], confirms: ['fanduel'] });
      const fd = await rows('sportsbook=fanduel');
      expect(fd.length).toBe(7);
      for (const r of fd) expect([r.id, r.timestamp, r.last_seen_at]).toEqual([r.id, iso(NOW + 30_000), iso(NOW + 30_000)]);
      expect((await fdRow()).odds_changed_at).toBe(iso(NOW));
      const sorted = await rows('sportsbook=draftkings,fanduel&sort=-timestamp');
      const times = sorted.map((r) => Date.parse(r.timestamp as string));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(sorted.slice(0, 7).every((r) => r.sportsbook === 'fanduel')).toBe(true);
      expect(sorted.at(-1)!.timestamp).toBe(iso(NOW));
      expect((await get(`/odds/delta?since=${iso(NOW + 5_000)}`)).data).toEqual([]);
    });

    it('a suspended row: is_active false, its price frozen, announced as odds:update and odds:locked; confirmations never were', async () => {
      const engine = t.app.get(DetectionEngine);
      const runs = engine.stats.incrementalRuns;
      await clock.set(NOW + 40_000);
      const locked = sse.next('odds:locked');
      ingestion.ingest({ source: 'test', quotes: [{ ...DK_KNICKS, isActive: false, price: { american: 900 } }] });
      const frame = await locked;
      const row = find(await rows('sportsbook=draftkings'), (r) => r.market_type === 'moneyline' && r.selection_type === 'away');
      expect(row).toMatchObject({
        is_active: false,
        odds_american: 120,
        odds_decimal: 2.2,
        timestamp: iso(NOW + 40_000),
        odds_changed_at: iso(NOW),
      });
      expect(frame.data.odds).toEqual([expect.objectContaining({ id: row.id, is_active: false, odds_american: 120 })]);
      // The suspension is a change: detection re-evaluates, /odds/delta lists it.
      expect(engine.stats.incrementalRuns).toBeGreaterThan(runs);
      expect(((await get(`/odds/delta?since=${iso(NOW + 35_000)}`)).data as J[]).map((x) => [x.id, x.is_active])).toEqual([
        [row.id, false],
      ]);
      // The stream sent this row and nothing for the two confirmations before it.
      const updated = sse.of('odds:update').flatMap((e) => (e.data.odds as J[]).map((o) => o.id));
      expect(updated).toEqual([row.id]);
    });
  });
});
