import { describe, expect, it } from '@jest/globals';
import type { FuturesMarket, FuturesPrice } from '../../domain/futures.js';
import type { BoardEvent, OddsRow } from '../../domain/odds-row.js';
import { categoriesOf, futuresContracts, gameContract, gameVenueId, runnerOf } from './prediction-markets.mapper.js';

const T = Date.parse('2026-07-12T23:44:00Z');
const event: BoardEvent = {
  id: 'mlb_rays_redsox_2026-07-12_b3',
  sport: 'baseball',
  league: 'mlb',
  homeTeam: 'Boston Red Sox',
  awayTeam: 'Tampa Bay Rays',
  homeKey: 'redsox',
  awayKey: 'rays',
  startTime: T,
  status: 'upcoming',
  externalIds: {},
  gameState: null,
  firstSeenAt: T - 1000,
  updatedAt: T - 1000,
  endedAt: null,
};
const row = (side: 'home' | 'away', american: number, probability: number, over: Partial<OddsRow> = {}): OddsRow => ({
  id: `r-${side}`,
  sportsbook: 'polymarket',
  eventId: event.id,
  sport: 'baseball',
  league: 'mlb',
  marketType: 'moneyline',
  period: 'game',
  ladderKey: 'l',
  groupKey: 'g',
  groupLine: null,
  selection: side === 'home' ? 'Boston Red Sox' : 'Tampa Bay Rays',
  selectionType: side,
  line: null,
  playerName: null,
  statCategory: null,
  american,
  decimal: american > 0 ? 1 + american / 100 : 1 + 100 / -american,
  probability,
  isLive: false,
  isActive: true,
  changedAt: T - 5000,
  oddsChangedAt: T - 5000,
  lastSeenAt: T - 5000,
  externalEventId: 'mlb_rays_redsox_2026-07-12_b3',
  marketId: null,
  selectionId: null,
  maxBet: null,
  ...over,
});

describe('game contracts', () => {
  it('are one market per venue group, linked to the canonical event, quotes null when none rests', () => {
    const m = gameContract(
      [row('away', 120, 0.4545, { volume: 100 }), row('home', -120, 0.5455, { bid: 0.54, ask: 0.56, last: 0.55, volume: 250 })],
      event,
      undefined,
    );
    expect(m).toMatchObject({
      market_id: 'polymarket:mlb_rays_redsox_2026-07-12_b3-moneyline',
      source_ids: {
        market_id: 'mlb_rays_redsox_2026-07-12_b3-moneyline',
        event_id: 'mlb_rays_redsox_2026-07-12_b3',
        selection_ids: ['r-home', 'r-away'],
      },
      title: 'Tampa Bay Rays @ Boston Red Sox: Moneyline',
      category: 'game',
      status: 'open',
      linked_event_id: event.id,
      futures_market_id: null,
      // 250 + 100; open interest unknown on both.
      volume: 350,
      open_interest: null,
      sportsbook_ref: null,
    });
    expect(m.outcomes.map((o) => [o.name, o.price.american, o.bid, o.ask, o.last])).toEqual([
      ['Boston Red Sox', -120, 0.54, 0.56, 0.55],
      ['Tampa Bay Rays', 120, null, null, null],
    ]);
    // -120: decimal 1 + 100/120 = 1.8333.
    expect(m.outcomes[0]!.price.decimal).toBe(1.8333);
  });

  it("use the venue's market id when it sent one, else event, market, period, player and line", () => {
    expect(gameVenueId(row('home', -120, 0.5, { marketId: 'KXMLBGAME-26JUL12TBBOS' }))).toBe('KXMLBGAME-26JUL12TBBOS');
    expect(
      gameVenueId(row('home', -120, 0.5, { marketType: 'player_hits', period: 'f5', playerName: 'Rafael Devers', groupLine: 0.5 })),
    ).toBe('mlb_rays_redsox_2026-07-12_b3-player_hits-f5-rafael_devers-0.5');
  });

  it('are closed once the game ended, suspended when no outcome takes orders', () => {
    expect(gameContract([row('home', -120, 0.5)], { ...event, status: 'ended' }, undefined).status).toBe('closed');
    expect(gameContract([row('home', -120, 0.5, { isActive: false })], event, undefined).status).toBe('suspended');
  });
});

describe('futures contracts', () => {
  const market: FuturesMarket = {
    id: 'mlb_outright_abc',
    name: 'Will ... be selected to the 2026 AL All-Star Team?',
    sport: 'baseball',
    league: 'mlb',
    futureType: 'YES_NO',
    kind: 'outright',
    closesAt: T + 86_400_000,
  };
  const price = (id: string, selection: string, selectionType: string, probability: number): FuturesPrice => ({
    id,
    marketId: market.id,
    sportsbook: 'kalshi',
    selection,
    selectionType,
    line: null,
    american:
      probability > 0.5 ? -Math.round((probability / (1 - probability)) * 100) : Math.round(((1 - probability) / probability) * 100),
    decimal: 1 / probability,
    probability,
    externalId: 'kxmlballstar',
    changedAt: T,
    lastSeenAt: T,
  });

  it('are one per runner of a Yes/No question, never linked to an event', () => {
    const out = futuresContracts(
      market,
      [
        price('a', 'Miguel Vargas: Yes', 'yes', 0.98),
        price('b', 'Miguel Vargas: No', 'no', 0.02),
        price('c', 'Bobby Witt Jr.: Yes', 'yes', 0.98),
      ],
      undefined,
      T,
    );
    expect(out.map((m) => [m.market_id, m.title, m.outcomes.map((o) => o.name), m.linked_event_id])).toEqual([
      ['kalshi:mlb_outright_abc-miguel_vargas', 'Will Miguel Vargas be selected to the 2026 AL All-Star Team?', ['Yes', 'No'], null],
      ['kalshi:mlb_outright_abc-bobby_witt_jr', 'Will Bobby Witt Jr. be selected to the 2026 AL All-Star Team?', ['Yes'], null],
    ]);
    expect(out[0]!.source_ids).toEqual({
      market_id: 'mlb_outright_abc-miguel_vargas',
      event_id: 'kxmlballstar',
      selection_ids: ['a', 'b'],
    });
    expect(out[0]!.futures_market_id).toBe(market.id);
    // Closed once the question's close time has passed.
    expect(futuresContracts(market, [price('a', 'Miguel Vargas: Yes', 'yes', 0.98)], undefined, market.closesAt + 1)[0]!.status).toBe(
      'closed',
    );
  });

  it('an n-way market is one contract with a runner per outcome', () => {
    const winner = {
      ...market,
      id: 'mlb_championship_winner_2026',
      name: 'MLB Championship winner 2026',
      futureType: 'TEAM' as const,
      kind: 'championship_winner',
    };
    const out = futuresContracts(winner, [price('x', 'Dodgers', 'other', 0.2), price('y', 'Yankees', 'other', 0.15)], undefined, T);
    expect(out).toHaveLength(1);
    expect(out[0]!.outcomes.map((o) => o.name)).toEqual(['Dodgers', 'Yankees']);
    expect(out[0]!.category).toBe('championship_winner');
  });

  it('reads the runner of a Yes/No selection', () => {
    expect(runnerOf({ selection: 'Craig Counsell: Yes', selectionType: 'yes' })).toBe('Craig Counsell');
    expect(runnerOf({ selection: 'Yes', selectionType: 'yes' })).toBeNull();
    expect(runnerOf({ selection: 'Dodgers', selectionType: 'other' })).toBeNull();
  });
});

describe('categories', () => {
  it('count markets per category and venue, most first', () => {
    const m = (category: string, venue: string) => ({ category, venue, sportsbook_ref: null }) as never;
    expect(categoriesOf([m('game', 'kalshi'), m('mvp', 'kalshi'), m('game', 'polymarket'), m('game', 'kalshi')])).toEqual([
      {
        id: 'game',
        label: 'Game contracts',
        market_count: 3,
        books: [
          { id: 'kalshi', label: 'kalshi', market_count: 2 },
          { id: 'polymarket', label: 'polymarket', market_count: 1 },
        ],
      },
      { id: 'mvp', label: 'MVP', market_count: 1, books: [{ id: 'kalshi', label: 'kalshi', market_count: 1 }] },
    ]);
  });
});
