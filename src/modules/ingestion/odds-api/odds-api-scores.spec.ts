import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { OddsApiProvider } from './odds-api.provider.js';
import { parseOddsApiScores } from './odds-api-scores.js';

const T = Date.parse('2026-11-22T20:00:00Z');
const game = (id: string, start: number, extra: Record<string, unknown>) => ({
  id,
  sport_key: 'basketball_nba',
  sport_title: 'NBA',
  commence_time: new Date(start).toISOString(),
  home_team: 'Boston Celtics',
  away_team: 'Los Angeles Lakers',
  ...extra,
});

describe('parseOddsApiScores', () => {
  it('maps live and completed games, scores by team name', () => {
    const u = parseOddsApiScores([
      game('a', T - 3600_000, {
        completed: false,
        scores: [
          { name: 'Los Angeles Lakers', score: '48' },
          { name: 'Boston Celtics', score: '52' },
        ],
        last_update: '2026-11-22T19:59:00Z',
      }),
      game('b', T - 4 * 3600_000, {
        completed: true,
        scores: [
          { name: 'Boston Celtics', score: '110' },
          { name: 'Los Angeles Lakers', score: '104' },
        ],
      }),
      game('c', T + 3600_000, { completed: false, scores: null }),
      { id: 'broken' },
    ]);
    expect(u).toEqual([
      {
        league: 'basketball_nba',
        homeTeam: 'Boston Celtics',
        awayTeam: 'Los Angeles Lakers',
        startTime: T - 3600_000,
        externalEventId: 'a',
        status: 'live',
        gameState: { home_score: 52, away_score: 48 },
      },
      {
        league: 'basketball_nba',
        homeTeam: 'Boston Celtics',
        awayTeam: 'Los Angeles Lakers',
        startTime: T - 4 * 3600_000,
        externalEventId: 'b',
        status: 'ended',
        gameState: { home_score: 110, away_score: 104, game_period: 'F' },
      },
    ]);
    expect(parseOddsApiScores({ message: 'nope' })).toEqual([]);
  });
});

describe('OddsApiProvider scores', () => {
  let server: Server;
  let base = '';
  const paths: string[] = [];
  let remaining = 400;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      paths.push(`${url.pathname}?${url.searchParams.get('daysFrom') ?? ''}`);
      const body = url.pathname.endsWith('/scores')
        ? [
            game('live1', T - 3600_000, {
              completed: false,
              scores: [
                { name: 'Boston Celtics', score: '60' },
                { name: 'Los Angeles Lakers', score: '55' },
              ],
            }),
          ]
        : [
            {
              ...game('live1', T - 3600_000, {}),
              bookmakers: [
                {
                  key: 'draftkings',
                  title: 'DraftKings',
                  last_update: '2026-11-22T19:59:00Z',
                  markets: [
                    {
                      key: 'h2h',
                      outcomes: [
                        { name: 'Boston Celtics', price: 1.5 },
                        { name: 'Los Angeles Lakers', price: 2.6 },
                      ],
                    },
                  ],
                },
              ],
            },
          ];
      res.writeHead(200, { 'content-type': 'application/json', 'x-requests-remaining': String(remaining), 'x-requests-used': '10' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('polls scores while a listed game is in progress, on its own interval, and stops at the quota floor', async () => {
    const p = new OddsApiProvider(new Catalog(), {
      key: 'k',
      baseUrl: base,
      sports: ['basketball_nba'],
      regions: ['us'],
      markets: ['h2h'],
      intervalSeconds: 300,
      minRemaining: 20,
      scoresIntervalSeconds: 60,
    });
    expect(p.intervalMs).toBe(60_000);
    const first = await p.poll(T);
    expect(paths).toEqual(['/v4/sports/basketball_nba/odds?', '/v4/sports/basketball_nba/scores?1']);
    expect(first!.events).toEqual([
      expect.objectContaining({ status: 'live', gameState: { home_score: 60, away_score: 55 }, externalEventId: 'live1' }),
    ]);
    // A minute later: scores only (the odds are due every 300 s).
    await p.poll(T + 60_000);
    expect(paths.slice(2)).toEqual(['/v4/sports/basketball_nba/scores?1']);
    remaining = 10;
    await p.poll(T + 120_000);
    expect(paths).toHaveLength(4); // that scores call reported 10 left
    await p.poll(T + 180_000);
    expect(paths).toHaveLength(4); // under the floor: no more calls
  });
});
