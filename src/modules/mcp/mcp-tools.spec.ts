import { describe, expect, it } from '@jest/globals';
import { errorSummary, bestBySelection, summarize } from './mcp-summary.js';
import { MCP_TOOLS, resolveRoute, routeTemplate, toQuery, type McpToolDef } from './mcp-tools.js';
import { loopbackTarget } from './rest-dispatcher.js';
import { routeKey } from './route-access.js';

const tool = (name: string): McpToolDef => MCP_TOOLS.find((t) => t.name === name)!;

describe('MCP tool table', () => {
  it('names each tool once, with a GET route under the API', () => {
    const names = MCP_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of MCP_TOOLS) expect(t.route).toMatch(/^\/[a-z_/{}?-]+$/);
  });

  it('fills path arguments and leaves optional segments out when absent', () => {
    expect(resolveRoute('/gamestate/{sport?}', {})).toEqual({ path: '/gamestate', used: new Set() });
    expect(resolveRoute('/gamestate/{sport?}', { sport: 'basketball' })).toEqual({
      path: '/gamestate/basketball',
      used: new Set(['sport']),
    });
    expect(resolveRoute('/events/{id}/odds', { id: 'a/b' }).path).toBe('/events/a%2Fb/odds');
    expect(() => resolveRoute('/events/{id}', {})).toThrow('id is required');
    expect(routeTemplate('/gamestate/{sport?}')).toBe('/gamestate');
    expect(routeTemplate('/events/{id}/odds')).toBe('/events/{id}/odds');
  });

  it('sends arguments as the query: lists joined with commas, numbers and booleans as text', () => {
    const q = toQuery(
      { sportsbook: ['draftkings', 'fanduel'], live: false, limit: 20, league: 'nba', skipped: 'x', none: undefined },
      new Set(['skipped']),
    );
    expect(q.toString()).toBe('sportsbook=draftkings%2Cfanduel&live=false&limit=20&league=nba');
  });

  it('validates arguments: types, bounds, enums, required ones and unknown names', () => {
    const odds = tool('get_odds').input;
    expect(odds.safeParse({ league: 'nba', sportsbook: ['draftkings'], limit: 500 }).success).toBe(true);
    expect(odds.safeParse({ limit: 501 }).success).toBe(false);
    expect(odds.safeParse({ limit: 1.5 }).success).toBe(false);
    expect(odds.safeParse({ sort: 'price' }).success).toBe(false);
    expect(odds.safeParse({ sort: '-odds_decimal' }).success).toBe(true);
    expect(odds.safeParse({ lesgue: 'nba' }).success).toBe(false);
    expect(odds.safeParse({ sportsbook: [] }).success).toBe(false);
    const delta = tool('get_odds_delta').input;
    expect(delta.safeParse({}).success).toBe(false);
    expect(delta.safeParse({ since: '2026-11-22T18:00:00Z' }).success).toBe(true);
    expect(delta.safeParse({ since: '2026-11-22T18:00:00+01:00' }).success).toBe(true);
    expect(delta.safeParse({ since: 'yesterday' }).success).toBe(false);
    expect(tool('compare_odds').input.safeParse({}).success).toBe(false);
    expect(tool('get_game_state').input.safeParse({ sport: '..' }).success).toBe(false);
    expect(tool('find_low_hold').input.safeParse({ max_hold: 6 }).success).toBe(false);
    expect(tool('get_events').input.safeParse({ date: '22/11/2026' }).success).toBe(false);
  });
});

describe('MCP summaries', () => {
  it('counts a page, says how to get the next one and describes the first item', () => {
    const body = {
      data: [
        {
          event_name: 'Lakers @ Celtics',
          market_type: 'moneyline',
          selection: 'Boston Celtics',
          line: null,
          odds_american: 150,
          sportsbook: 'draftkings',
        },
      ],
      pagination: { limit: 1, offset: 0, has_more: true, next_offset: 1 },
      meta: { count: 1, total: 7 },
    };
    expect(summarize(tool('get_odds'), body, 0)).toBe(
      '1 odds rows (of 7); more with offset=1. First: Lakers @ Celtics: moneyline Boston Celtics +150 at draftkings',
    );
    expect(summarize(tool('get_odds'), body, 60)).toContain('as of 60 s ago');
  });

  it('names the best and worst book per selection (highest decimal price; ties to the first book by name)', () => {
    const rows = [
      { market_type: 'point_spread', selection: 'Celtics', line: -3.5, odds_american: -110, odds_decimal: 1.909, sportsbook: 'fanduel' },
      { market_type: 'point_spread', selection: 'Celtics', line: -3.5, odds_american: -105, odds_decimal: 1.952, sportsbook: 'draftkings' },
      { market_type: 'point_spread', selection: 'Celtics', line: -3.5, odds_american: -105, odds_decimal: 1.952, sportsbook: 'betmgm' },
      { market_type: 'point_spread', selection: 'Lakers', line: 3.5, odds_american: -115, odds_decimal: 1.87, sportsbook: 'fanduel' },
    ];
    expect(
      bestBySelection([
        {
          market_type: 'total_points',
          selection: 'Over',
          selection_type: 'over',
          line: 210.5,
          odds_american: -110,
          odds_decimal: 1.909,
          sportsbook: 'fanduel',
        },
      ]),
    ).toEqual(['total_points Over 210.5: best -110 at fanduel (1 book)']);
    expect(bestBySelection(rows)).toEqual([
      'point_spread Celtics -3.5: best -105 at betmgm (worst -110 at fanduel, 3 books)',
      'point_spread Lakers +3.5: best -115 at fanduel (1 book)',
    ]);
    const cmp = summarize(tool('compare_odds'), { data: { fanduel: [rows[0], rows[3]], draftkings: [rows[1]] } }, 0);
    expect(cmp).toContain('3 prices at 2 sportsbooks (fanduel, draftkings)');
    expect(cmp).toContain('point_spread Celtics -3.5: best -105 at draftkings (worst -110 at fanduel, 2 books)');
  });

  it('summarises the account, game state and closing lines', () => {
    expect(
      summarize(
        tool('get_account_info'),
        {
          data: {
            key: { tier: 'pro' },
            limits: { requests_per_minute: 300, odds_delay_seconds: 0, max_books: 15 },
            features: { ev: true, arbitrage: true, middles: false },
          },
        },
        0,
      ),
    ).toBe('Tier pro: 300 requests/min, data delay 0 s, max books 15; features: ev, arbitrage.');
    const gs = summarize(
      tool('get_game_state'),
      {
        data: {
          basketball: {
            e1: { home_team: 'Celtics', away_team: 'Lakers', home_score: 50, away_score: 48, game_period: 'Q3', game_clock: '5:42' },
          },
          hockey: {},
        },
      },
      0,
    );
    expect(gs).toBe('1 live games in 2 sports\nLakers 48 @ Celtics 50 (Q3 5:42)');
    const cl = summarize(
      tool('get_closing_lines'),
      {
        data: {
          event_id: 'e1',
          home_team: 'Celtics',
          away_team: 'Lakers',
          books: {
            pinnacle: [
              { market_type: 'moneyline', selection: 'Celtics', odds_american: -150, odds_decimal: 1.667, sportsbook: 'pinnacle' },
            ],
          },
        },
      },
      0,
    );
    expect(cl).toBe('Closing lines of Lakers @ Celtics: 1 prices at 1 sportsbooks\nmoneyline Celtics: best -150 at pinnacle (1 book)');
  });

  it('words a refusal with the code, the status and the tier needed', () => {
    expect(errorSummary(403, { error: { code: 'tier_restricted', message: '+EV requires the pro tier', required_tier: 'pro' } })).toBe(
      'tier_restricted (HTTP 403): +EV requires the pro tier. Required tier: pro.',
    );
    expect(errorSummary(429, { error: { code: 'rate_limited', message: 'slow down', retry_after: 12 } })).toBe(
      'rate_limited (HTTP 429): slow down. Retry after 12 s.',
    );
    expect(errorSummary(502, null)).toBe('The request failed with HTTP 502.');
  });
});

describe('MCP plumbing', () => {
  it('reaches an unspecified bind address on loopback', () => {
    expect(loopbackTarget({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(loopbackTarget({ address: '::', family: 'IPv6', port: 3000 })).toEqual({ host: '::1', port: 3000 });
    expect(loopbackTarget({ address: '10.0.0.5', family: 'IPv4', port: 80 })).toEqual({ host: '10.0.0.5', port: 80 });
    expect(loopbackTarget('/tmp/odds.sock')).toEqual({ socketPath: '/tmp/odds.sock' });
    expect(() => loopbackTarget(null)).toThrow('not listening');
  });

  it('matches route paths whatever the parameter syntax', () => {
    expect(routeKey('gamestate/:sport')).toBe('/gamestate/:');
    expect(routeKey('/gamestate/{sport}')).toBe('/gamestate/:');
    expect(routeKey('opportunities//ev/')).toBe('/opportunities/ev');
  });
});
