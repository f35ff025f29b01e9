// Child process of the stream benchmark: the service with a synthetic board, 50 enterprise keys (20 streams
// each) and a fixed admin token; prints {port} when ready.
import { benchApp } from './bench-app.js';
import { Catalog } from '../src/config/catalog.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { syntheticQuotes } from './synthetic-board.js';

const keys = Array.from({ length: 50 }, (_, i) => `enterprise:sk_bench_stream_${String(i).padStart(4, '0')}`).join(',');
const app = await benchApp({ API_KEYS: keys, ADMIN_TOKEN: 'bench-admin-token-0001', ENTERPRISE_REQUESTS_PER_MINUTE: '1000000' });
const now = Date.now();
app
  .get(IngestionService)
  .ingest({ source: 'bench', quotes: syntheticQuotes(new Catalog(), Number(process.env.BENCH_ROWS ?? 20_000), now) }, now, {
    backfill: true,
  });
await app.listen(0, '127.0.0.1');
// BENCH_CPU_PROF=file.cpuprofile: a CPU profile of the server while it serves the benchmark, written when the
// benchmark stops it (SIGTERM); open it in Chrome DevTools or summarise it with a script.
const profile = process.env.BENCH_CPU_PROF;
if (profile) {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  process.once('SIGTERM', () => {
    void session.post('Profiler.stop').then(({ profile: p }) => {
      writeFileSync(profile, JSON.stringify(p));
      process.exit(0);
    });
  });
}
process.stdout.write(JSON.stringify({ port: (app.getHttpServer().address() as { port: number }).port }) + '\n');
