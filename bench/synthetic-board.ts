import { Catalog } from '../src/config/catalog.js';
import type { Quote } from '../src/domain/types.js';

/** The quote with its decimal price moved by `delta` (to three decimals): a price change for the benchmarks to send. */
export function movedQuote(q: Quote, delta: number): Quote {
  return { ...q, price: { decimal: +((q.price.decimal ?? 2) + delta).toFixed(3) } };
}

/**
 * A deterministic synthetic market of about `rows` prices: real catalog teams and books, moneylines,
 * spreads and totals with alternate rungs, spread over a month so every game has its own event id.
 */
export function syntheticQuotes(catalog: Catalog, rows: number, now: number): Quote[] {
  const books = catalog.listedBooks().map((b) => b.id);
  const leagues = ['nba', 'nhl', 'nfl', 'ncaab', 'epl', 'la_liga', 'serie_a', 'bundesliga'];
  const perGame = books.length * 10;
  const games = Math.ceil(rows / perGame);
  const quotes: Quote[] = [];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let g = 0; g < games; g++) {
    const league = leagues[g % leagues.length]!;
    const teams = catalog.teamsOf(league);
    const home = teams[(g * 7) % teams.length]!;
    const away = teams[(g * 7 + 1 + (g % (teams.length - 1))) % teams.length]!;
    if (home.id === away.id) continue;
    const start = now + (g % 720) * 3600_000 + Math.floor(g / 720) * 600_000;
    for (const book of books) {
      const base = { book, league, homeTeam: home.name, awayTeam: away.name, startTime: start };
      const p = 0.35 + rnd() * 0.3;
      const three = league === 'epl' || league === 'la_liga' || league === 'serie_a' || league === 'bundesliga';
      quotes.push({
        ...base,
        marketType: 'moneyline',
        selection: home.name,
        selectionType: 'home',
        price: { decimal: +(1 / (p * 1.04)).toFixed(3) },
      });
      quotes.push({
        ...base,
        marketType: 'moneyline',
        selection: away.name,
        selectionType: 'away',
        price: { decimal: +(1 / ((three ? 0.75 - p : 1 - p) * 1.04)).toFixed(3) },
      });
      for (const off of [-1, 0, 1]) {
        const line = -3.5 + off;
        quotes.push({
          ...base,
          marketType: 'point_spread',
          selection: home.name,
          selectionType: 'home',
          line,
          price: { decimal: +(1.91 + off * 0.2).toFixed(3) },
        });
        quotes.push({
          ...base,
          marketType: 'point_spread',
          selection: away.name,
          selectionType: 'away',
          line: -line,
          price: { decimal: +(1.91 - off * 0.15).toFixed(3) },
        });
      }
      for (const off of [-1, 1]) {
        const line = 220.5 + off * 2;
        quotes.push({
          ...base,
          marketType: 'total_points',
          selection: 'Over',
          selectionType: 'over',
          line,
          price: { decimal: +(1.9 - off * 0.1).toFixed(3) },
        });
        quotes.push({
          ...base,
          marketType: 'total_points',
          selection: 'Under',
          selectionType: 'under',
          line,
          price: { decimal: +(1.9 + off * 0.1).toFixed(3) },
        });
      }
      if (quotes.length >= rows) return quotes;
    }
  }
  return quotes;
}
