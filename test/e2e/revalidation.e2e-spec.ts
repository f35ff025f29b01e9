import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ModulesContainer } from '@nestjs/core';
import { KeptAnswers } from '../../src/common/http/conditional-get.js';
import { REVALIDATE_KIND } from '../../src/common/http/revalidation.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { TIER_TABLE } from '../../src/config/config.module.js';
import type { TierTable } from '../../src/config/tiers.js';
import type { EventUpdate, ProviderBatch } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H, type GameSpec } from '../factories/market.js';
import { NOW } from '../factories/quotes.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The event and reference lists answer from the answer they last sent, without building it again, while the data they
 * read has not changed (`@Revalidate`): 304 to its ETag, else its bytes. Whatever changes (a price, a book joining or
 * leaving a game, a game state, a game ending, a new game, a new book, the time passing game-state flags and the free
 * tier's delay), a kept answer must be what building it again gives: the same ETag, the same data.
 */
describe('answers of the event and reference lists kept while their data is unchanged', () => {
  const BOOKS = ['draftkings', 'fanduel', 'pinnacle', 'betmgm'];
  const games: GameSpec[] = [
    { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW - H, live: true },
    { league: 'nba', home: 'Miami Heat', away: 'Chicago Bulls', start: NOW + 5 * H },
    { league: 'nhl', home: 'Boston Bruins', away: 'New York Rangers', start: NOW - H / 2, live: true },
    { league: 'epl', home: 'Arsenal', away: 'Chelsea', start: NOW + 9 * H },
  ];
  const clock = new ManualClock(NOW);
  let t: TestApp;
  let seed = 20261128;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const ingest = (batch: Omit<ProviderBatch, 'source'>) =>
    expect(t.app.get(IngestionService).ingest({ source: 'test', ...batch }, clock.now()).rejected).toEqual({});
  const gameOf = (g: GameSpec) => ({ league: g.league, homeTeam: g.home, awayTeam: g.away, startTime: g.start });
  const scores = new Map<GameSpec, number>();
  const gameState = (g: GameSpec, book: string): EventUpdate => {
    const home = (scores.get(g) ?? 0) + 1;
    scores.set(g, home);
    return { ...gameOf(g), status: 'live', book, gameState: { home_score: home, away_score: 2, game_period: '2', game_clock: '5:00' } };
  };

  /** An answer without the times it states about itself (when it was built). */
  const withoutTimes = (text: string) => text.replace(/"(updated_at|server_time|updated)":"[^"]*"/g, '"$1":""');

  /** The routes that carry @Revalidate, as `GET /api/v1/...` templates, read off the controllers. */
  const revalidatedRoutes = (): string[] => {
    const out: string[] = [];
    for (const m of t.app.get(ModulesContainer).values())
      for (const c of m.controllers.values()) {
        const type = c.metatype as { prototype: Record<string, unknown> } | null;
        if (!type) continue;
        const base = String(Reflect.getMetadata('path', type) ?? '');
        for (const name of Object.getOwnPropertyNames(type.prototype)) {
          const fn = type.prototype[name];
          if (typeof fn !== 'function' || !Reflect.getMetadata(REVALIDATE_KIND, fn)) continue;
          out.push(`/${[base, String(Reflect.getMetadata('path', fn) ?? '')].filter((p) => p && p !== '/').join('/')}`);
        }
      }
    return out.sort();
  };

  beforeAll(async () => {
    t = await startTestApp({ clock });
    // The free tier is here for its delayed view; its budget (12 a minute) would stop the test, not what it checks.
    (t.app.get<TierTable>(TIER_TABLE).byName.free as { requestsPerMinute: number }).requestsPerMinute = 1_000_000;
    ingest({ quotes: buildMarket(games, BOOKS, NOW), events: [gameState(games[0]!, 'pinnacle'), gameState(games[2]!, 'pinnacle')] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every revalidated route: a kept answer (a 304, or its bytes) only while building it again gives the same', async () => {
    const eventId = (await t.call('/events?league=nba&live=true', { key: KEYS.enterprise })).json.data[0].id as string;
    const requests: Record<string, string[]> = {
      '/events': ['/events?limit=50', '/events?live=true', '/events?league=nba,nhl&sportsbook=caesars'],
      '/events/:eventId': [`/events/${eventId}`],
      '/sports': ['/sports', '/sports?include_empty=true'],
      '/sports/:sportId': ['/sports/hockey'],
      '/leagues': ['/leagues', '/leagues?sport=basketball'],
      '/leagues/:leagueId': ['/leagues/epl'],
      '/teams': ['/teams?league=nba'],
    };
    // Every route that answers before building is exercised here.
    expect(revalidatedRoutes()).toEqual(Object.keys(requests).sort());

    const tags = new Map<string, string>();
    const tally = { before: 0, digest: 0, changed: 0, kept: 0 };
    /**
     * Each request conditional on its last ETag, then plainly (kept or built), then, with nothing kept, as building
     * it again gives it (the truth): a 304 must carry the truth's ETag, a plain answer its bytes.
     */
    const check = async (step: string, expectUnchanged: boolean) => {
      const asked = [KEYS.enterprise, KEYS.free].flatMap((key) =>
        Object.values(requests)
          .flat()
          .map((path) => ({ key, path })),
      );
      const got = [];
      for (const { key, path } of asked) {
        const last = tags.get(`${key} ${path}`);
        const cond = last ? await t.call(path, { key, headers: { 'If-None-Match': last } }) : undefined;
        got.push({ key, path, last, cond, plain: await t.call(path, { key }) });
      }
      t.app.get(KeptAnswers).clear();
      for (const { key, path, last, cond, plain } of got) {
        const id = `${key} ${path}`;
        const fresh = await t.call(path, { key });
        expect([step, key, path, plain.status, withoutTimes(plain.text)]).toEqual([
          step,
          key,
          path,
          fresh.status,
          withoutTimes(fresh.text),
        ]);
        if (plain.headers.get('x-cache-status') === 'HIT') tally.kept++;
        if (fresh.status === 404 && path.startsWith('/events/')) {
          // Not yet in the free tier's delayed view: no ETag to keep.
          expect([step, key, path, cond?.status ?? 404]).toEqual([step, key, path, 404]);
          tags.delete(id);
          continue;
        }
        expect([step, path, fresh.status]).toEqual([step, path, 200]);
        const tag = fresh.headers.get('etag')!;
        expect([step, key, path, plain.headers.get('etag')]).toEqual([step, key, path, tag]);
        if (cond) {
          const how = cond.status === 304 ? (cond.headers.get('x-cache-status') === 'HIT' ? 'before' : 'digest') : 'changed';
          expect([step, key, path, how === 'changed' ? cond.headers.get('etag') : last]).toEqual([step, key, path, tag]);
          if (how === 'changed') expect([step, key, path, cond.status]).toEqual([step, key, path, 200]);
          if (expectUnchanged)
            expect([step, key, path, how, plain.headers.get('x-cache-status')]).toEqual([step, key, path, 'before', 'HIT']);
          tally[how]++;
        }
        tags.set(id, tag);
      }
    };

    await check('start', false);
    const extraBooks = ['caesars', 'unheard_of_book'];
    let quotes = buildMarket(games, BOOKS, NOW);
    for (let step = 0; step < 40; step++) {
      const r = rnd();
      const g = pick(games);
      let name: string;
      if (r < 0.3) {
        // A price move: nothing the lists show.
        name = 'price';
        const k = Math.floor(rnd() * quotes.length);
        const q = quotes[k]!;
        quotes = quotes.map((x, i) => (i === k ? { ...q, price: { american: (q.price.american ?? 100) + (rnd() < 0.5 ? -5 : 5) } } : x));
        ingest({ quotes: [quotes[k]!] });
        await check(`${step} ${name}`, true);
        continue;
      } else if (r < 0.42) {
        name = 'book joins';
        const book = pick(extraBooks);
        ingest({ quotes: quotes.filter((q) => q.homeTeam === g.home && q.marketType === 'moneyline').map((q) => ({ ...q, book })) });
      } else if (r < 0.5) {
        name = 'book leaves';
        ingest({ quotes: [], eventRemovals: [{ book: pick([...BOOKS, ...extraBooks]), ...gameOf(g) }] });
      } else if (r < 0.65) {
        name = 'game state';
        const live = games.filter((x) => x.live);
        ingest({ quotes: [], events: [gameState(pick(live), pick(['pinnacle', 'draftkings']))] });
      } else if (r < 0.7) {
        name = 'new game';
        const n = games.length;
        const game: GameSpec = {
          league: 'nba',
          home: pick(['Denver Nuggets', 'Utah Jazz']),
          away: 'Phoenix Suns',
          start: NOW + (6 + n) * H,
        };
        games.push(game);
        quotes = [...quotes, ...buildMarket([game], BOOKS, clock.now())];
        ingest({ quotes: buildMarket([game], BOOKS, clock.now()) });
      } else if (r < 0.73) {
        name = 'game ends';
        ingest({ quotes: [], events: [{ ...gameOf(g), status: 'ended', book: 'pinnacle' }] });
      } else {
        name = 'time';
        await clock.advance(Math.floor(1000 + rnd() * 69_000));
      }
      await check(`${step} ${name}`, false);
    }
    // The check compared something of each kind: answers before building, answers that changed.
    expect(tally.before).toBeGreaterThan(200);
    expect(tally.changed).toBeGreaterThan(50);
    expect(tally.kept).toBeGreaterThan(200);
  });

  it('a 304 before building counts on the rate limit and carries the headers a 200 has', async () => {
    const key = await t.newKey('pro');
    const first = await t.call('/leagues', { key });
    const again = await t.call('/leagues', { key, headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('x-cache-status')).toBe('HIT');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    expect(again.headers.get('x-tier')).toBe('pro');
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    expect(again.headers.get('content-type')).toBeNull();
  });

  it('a kept answer carries the headers its route set (X-Limit-Clamped)', async () => {
    const key = await t.newKey('enterprise');
    const first = await t.call('/events?limit=300', { key });
    expect([first.headers.get('x-cache-status'), first.headers.get('x-limit-clamped'), first.json.pagination.limit]).toEqual([
      'MISS',
      '200',
      200,
    ]);
    const kept = await t.call('/events?limit=300', { key });
    expect([kept.headers.get('x-cache-status'), kept.headers.get('x-limit-clamped'), kept.json.pagination.limit]).toEqual([
      'HIT',
      '200',
      200,
    ]);
    const again = await t.call('/events?limit=300', { key, headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect([again.status, again.headers.get('x-cache-status'), again.headers.get('x-limit-clamped')]).toEqual([304, 'HIT', '200']);
    expect((await t.call('/events?limit=20', { key })).headers.get('x-limit-clamped')).toBeNull();
  });

  it('a kept answer serves every key of the same tier, add-ons and profile, and no other', async () => {
    const ent = await t.call('/leagues?sport=hockey', { key: KEYS.enterprise });
    const tag = ent.headers.get('etag')!;
    const other = await t.call('/leagues?sport=hockey', { key: await t.newKey('enterprise') });
    expect([other.headers.get('x-cache-status'), other.headers.get('etag')]).toEqual(['HIT', tag]);
    expect((await t.call('/leagues?sport=hockey', { key: KEYS.enterprise, headers: { 'If-None-Match': tag } })).status).toBe(304);
    // The same bytes for another tier: its own ETag, so the enterprise one does not validate it.
    const sharp = await t.call('/leagues?sport=hockey', { key: KEYS.sharp, headers: { 'If-None-Match': tag } });
    expect([sharp.status, sharp.headers.get('x-cache-status')]).toEqual([200, 'MISS']);
    // Another client profile is another request.
    const python = await t.call('/leagues?sport=hockey', { key: KEYS.enterprise, headers: { 'User-Agent': 'python-requests/2.32' } });
    expect([python.status, python.headers.get('x-cache-status')]).toEqual([200, 'MISS']);
  });
});
