import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { buildMarket, H } from '../factories/market.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.parse('2026-11-22T18:00:00Z');

describe("a provider's initial snapshot fed in slices", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('ends with the same board as one batch, and reports rejections at their place in the whole batch', async () => {
    const quotes: Quote[] = buildMarket(
      [
        { league: 'nba', home: 'Boston Celtics', away: 'Los Angeles Lakers', start: NOW + 2 * H },
        { league: 'nhl', home: 'Toronto Maple Leafs', away: 'Montreal Canadiens', start: NOW + 5 * H },
      ],
      ['draftkings', 'fanduel', 'betmgm'],
      NOW,
    );
    // Two quotes that cannot be accepted, far apart in the batch.
    const bad = (q: Quote): Quote => ({ ...q, price: { decimal: 0.5 } });
    quotes.splice(3, 0, bad(quotes[0]!));
    quotes.splice(40, 0, bad(quotes[1]!));
    const ingestion = t.app.get(IngestionService);

    const report = await ingestion.ingestInSlices({ source: 'test', quotes }, { backfill: true }, 7);
    expect(report.quotes).toBe(quotes.length);
    expect(report.accepted).toBe(quotes.length - 2);
    expect(report.rejections.map((r) => r.index)).toEqual([3, 40]);

    const total = (await t.call('/odds?limit=1', { key: KEYS.sharp })).json.meta.total;
    expect(total).toBe(quotes.length - 2);
    // The same batch in one piece changes nothing: the slices built the whole board.
    const again = ingestion.ingest({ source: 'test', quotes }, NOW);
    expect(again.changed).toBe(0);
    expect(again.unchanged).toBe(quotes.length - 2);
  });
});
