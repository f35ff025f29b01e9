import type { Quote } from '../../src/domain/types.js';

export const H = 3600_000;

/** One book's Celtics-Lakers moneyline price (NBA, starting six hours after `now`): home (Celtics) or away. */
export function celticsMoneyline(book: string, american: number, now: number, side: 'home' | 'away' = 'home'): Quote {
  return {
    book,
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startTime: now + 6 * H,
    marketType: 'moneyline',
    selection: side === 'home' ? 'Boston Celtics' : 'Los Angeles Lakers',
    selectionType: side,
    line: null,
    price: { american },
  };
}

export interface GameSpec {
  league: string;
  home: string;
  away: string;
  start: number;
  live?: boolean;
}

/**
 * Builds a small, fully known market: for each game and book, a moneyline, a main spread and total and one
 * alternate spread, with prices that differ by book in a deterministic way. Used by end-to-end tests that
 * compute their expectations from what they put on the board.
 */
export function buildMarket(games: GameSpec[], books: string[], now: number): Quote[] {
  const quotes: Quote[] = [];
  games.forEach((g, gi) => {
    books.forEach((book, bi) => {
      const base = {
        book,
        league: g.league,
        homeTeam: g.home,
        awayTeam: g.away,
        startTime: g.start,
        isLive: g.live ?? false,
        sourceTime: now - (bi + 1) * 1000,
      };
      const homeMl = -120 - ((gi * 7 + bi * 5) % 60);
      const awayMl = 100 + ((gi * 11 + bi * 3) % 50);
      quotes.push({ ...base, marketType: 'moneyline', selection: g.home, selectionType: 'home', line: null, price: { american: homeMl } });
      quotes.push({ ...base, marketType: 'moneyline', selection: g.away, selectionType: 'away', line: null, price: { american: awayMl } });
      if (g.league === 'epl') {
        quotes.push({
          ...base,
          marketType: 'moneyline',
          selection: 'Draw',
          selectionType: 'draw',
          line: null,
          price: { decimal: 3.3 + bi * 0.05 },
        });
        return;
      }
      const spread = -3.5 - (gi % 3);
      const vig = -105 - ((gi + bi) % 4) * 5;
      quotes.push({
        ...base,
        marketType: 'point_spread',
        selection: g.home,
        selectionType: 'home',
        line: spread,
        price: { american: vig },
      });
      quotes.push({
        ...base,
        marketType: 'point_spread',
        selection: g.away,
        selectionType: 'away',
        line: -spread,
        price: { american: -220 - vig },
      });
      if (bi % 2 === 0) {
        quotes.push({
          ...base,
          marketType: 'point_spread',
          selection: g.home,
          selectionType: 'home',
          line: spread - 2,
          price: { american: 140 + bi },
        });
        quotes.push({
          ...base,
          marketType: 'point_spread',
          selection: g.away,
          selectionType: 'away',
          line: -spread + 2,
          price: { american: -170 - bi },
        });
      }
      const total = 220.5 + gi;
      quotes.push({
        ...base,
        marketType: 'total_points',
        selection: 'Over',
        selectionType: 'over',
        line: total,
        price: { american: -110 - (bi % 3) * 2 },
      });
      quotes.push({
        ...base,
        marketType: 'total_points',
        selection: 'Under',
        selectionType: 'under',
        line: total,
        price: { american: -110 + (bi % 3) * 2 },
      });
    });
  });
  return quotes;
}
