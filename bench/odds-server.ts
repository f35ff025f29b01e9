// Child process of the odds benchmark: the whole service (embedded store, no providers) with a synthetic
// board of BENCH_ROWS prices, listening on a random port. Prints one JSON line {port, rows} when ready.
import { benchApp } from './bench-app.js';
import { Catalog } from '../src/config/catalog.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { BoardService } from '../src/modules/board/board.service.js';
import { movedQuote, syntheticQuotes } from './synthetic-board.js';

const rows = Number(process.env.BENCH_ROWS ?? 250_000);
const app = await benchApp({ API_KEYS: 'enterprise:sk_bench_ent_000001', ENTERPRISE_REQUESTS_PER_MINUTE: '1000000' });
const ingestion = app.get(IngestionService);
const now = Date.now();
const quotes = syntheticQuotes(new Catalog(), rows, now);
for (let i = 0; i < quotes.length; i += 20_000)
  ingestion.ingest({ source: 'bench', quotes: quotes.slice(i, i + 20_000) }, now, { backfill: true });
// Churn: one price changes every BENCH_CHURN ms, so cached results are recomputed at that rate.
const churn = Number(process.env.BENCH_CHURN ?? 0);
if (churn > 0) {
  let i = 0;
  setInterval(() => {
    const q = quotes[(i++ * 7919) % quotes.length]!;
    ingestion.ingest({ source: 'bench', quotes: [movedQuote(q, i % 2 ? 0.01 : -0.01)] });
  }, churn);
}
await app.listen(0, '127.0.0.1');
const address = app.getHttpServer().address() as { port: number };
process.stdout.write(JSON.stringify({ port: address.port, rows: app.get(BoardService).board.size }) + '\n');
process.on('SIGTERM', () => process.exit(0)); // lets --cpu-prof write its profile
