import { describe, expect, it } from '@jest/globals';
import { readJson } from '../../config/paths.js';
import { DeepLinkTemplates, deepLinkPath, deepLinksOf, deepLinkTemplates, type BookLinkSpec } from './deep-link-templates.js';

const t = deepLinkTemplates();

describe('deep-link templates (config/deep-links.json)', () => {
  it('has a template for every catalog book but the five the public catalog gives no links (bet105, bookmaker, fliff, rebet, saba), each with a source and an https home page', () => {
    const books = readJson<Array<{ id: string }>>('config', 'catalog', 'sportsbooks.json').map((b) => b.id);
    const without = books.filter((b) => !t.has(b)).sort();
    expect(without).toEqual(['bet105', 'bookmaker', 'fliff', 'rebet', 'saba']);
    for (const b of t.bookIds()) {
      expect(books).toContain(b);
      const s = t.spec(b)!;
      expect(s.homepage).toMatch(/^https:\/\/[^{}]+$/);
      expect(s.source.length).toBeGreaterThan(10);
      for (const level of ['event', 'outcome', 'state_homepage'] as const) if (s[level]) expect(s[level]).toMatch(/^https:\/\//);
    }
  });

  it("outcome level when the book's own ids are there: FanDuel add-to-betslip", () => {
    expect(t.resolve('fanduel', { market_id: '42.123456789', selection_id: '98765432' })).toEqual({
      url: 'https://sportsbook.fanduel.com/addToBetslip?marketId=42.123456789&selectionId=98765432',
      type: 'outcome',
    });
  });

  it("event level when only the event id is the book's own: DraftKings", () => {
    expect(t.resolve('draftkings', { event_id: '31234567', selection_id: null })).toEqual({
      url: 'https://sportsbook.draftkings.com/event/31234567',
      type: 'event',
    });
    expect(t.resolve('draftkings', { event_id: '31234567', selection_id: '0QA31234567#1_3' })).toEqual({
      url: 'https://sportsbook.draftkings.com/event/31234567?outcomes=0QA31234567%231_3',
      type: 'outcome',
    });
  });

  it("ids that are not the book's own (simulated dk_1234567, The Odds API hex ids) never go into a URL: home page", () => {
    expect(
      t.resolve('draftkings', { event_id: 'dk_1234567', market_id: 'dk_1234567-moneyline', selection_id: 'dk_1234567-moneyline-home' }),
    ).toEqual({ url: 'https://sportsbook.draftkings.com', type: 'homepage' });
    expect(t.resolve('draftkings', { event_id: 'e912304de2b2ce35b473ce2ecd3d1502' })).toEqual({
      url: 'https://sportsbook.draftkings.com',
      type: 'homepage',
    });
  });

  it('state-specific books: the state routes event links and home pages; no or an unserved state falls back', () => {
    const ids = { event_id: '1019447474' };
    expect(t.resolve('betrivers', ids, 'PA')).toEqual({ url: 'https://pa.betrivers.com/?page=sportsbook#event/1019447474', type: 'event' });
    expect(t.resolve('betrivers', ids)).toEqual({ url: 'https://www.betrivers.com', type: 'homepage' });
    expect(t.resolve('betrivers', ids, 'ca')).toEqual({ url: 'https://www.betrivers.com', type: 'homepage' });
    expect(t.resolve('caesars', {}, 'nj')).toEqual({ url: 'https://sportsbook.caesars.com/us/nj/bet', type: 'homepage' });
    expect(t.resolve('betmgm', { event_id: '17012345', market_id: '123456789', selection_id: '456789012' }, 'mi')).toEqual({
      url: 'https://sports.mi.betmgm.com/en/sports?options=17012345-123456789-456789012',
      type: 'outcome',
    });
    expect(t.resolve('betmgm', { event_id: '17012345' }, 'nj')).toEqual({
      url: 'https://sports.nj.betmgm.com/en/sports/events/17012345',
      type: 'event',
    });
    expect(t.resolve('betmgm', { event_id: '17012345' })).toEqual({ url: 'https://sports.betmgm.com', type: 'homepage' });
    // A state on a book that is not state-specific changes nothing.
    expect(t.resolve('thescorebet', {}, 'pa')).toEqual({ url: 'https://thescore.bet', type: 'homepage' });
  });

  it('prediction markets: Kalshi series tickers, Polymarket slugs', () => {
    expect(t.resolve('kalshi', { event_id: 'kxmlbalcent' })).toEqual({ url: 'https://kalshi.com/markets/kxmlbalcent', type: 'event' });
    expect(t.resolve('polymarket', { event_id: 'mlb-world-series-winner-2026' })).toEqual({
      url: 'https://polymarket.com/event/mlb-world-series-winner-2026',
      type: 'event',
    });
    expect(t.resolve('polymarket', { event_id: '2871620' })).toEqual({ url: 'https://polymarket.com/sports', type: 'homepage' });
  });

  it('a book without a template resolves to nothing; ids without a declared pattern must be plain tokens', () => {
    expect(t.resolve('rebet', { event_id: '1' })).toBeNull();
    const own = new DeepLinkTemplates({
      x: { homepage: 'https://x.test', event: 'https://x.test/e/{event_id}', source: 'test book' } satisfies BookLinkSpec,
    });
    expect(own.resolve('x', { event_id: 'abc-123' })).toEqual({ url: 'https://x.test/e/abc-123', type: 'event' });
    expect(own.resolve('x', { event_id: '../admin?x=1' })).toEqual({ url: 'https://x.test', type: 'homepage' });
  });

  it('row links point at the resolver; deep_links objects leave books without a template out (no null values)', () => {
    expect(deepLinkPath('draftkings', 'abc123')).toBe('/api/v1/deeplink/abc123');
    expect(deepLinkPath('draftkings', 'abc123', 'pa')).toBe('/api/v1/deeplink/abc123?state=pa');
    expect(deepLinkPath('bet105', 'abc123')).toBeNull();
    const links = deepLinksOf([
      { book: 'bet105', id: 'a' },
      { book: 'fanduel', id: 'b' },
      { book: 'rebet', id: 'c' },
      { book: 'saba', id: 'd' },
      { book: 'pinnacle', id: 'e' },
    ]);
    expect(links).toEqual({ fanduel: '/api/v1/deeplink/b', pinnacle: '/api/v1/deeplink/e' });
    expect(Object.values(links).every((v) => typeof v === 'string')).toBe(true);
  });
});
