// Child process of the stream benchmark: the service with a synthetic board, 50 enterprise keys (20 streams
// each) and a fixed admin token; prints {port} when ready.
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
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
// BENCH_WRITES_FILE=file: the writes handed to the kernel (one per Socket _write or _writev: one system call each) on
// the SSE streams' sockets, by the stream's channel parameter, written to the file on SIGUSR2 (a count, not a time).
const writesFile = process.env.BENCH_WRITES_FILE;
if (writesFile) {
  const writes: Record<string, number> = {};
  /** The channel of each response written to (null: not a stream), found once per response, not per write. */
  const channels = new WeakMap<ServerResponse, string | null>();
  const count = (socket: Socket) => {
    const res = (socket as unknown as { _httpMessage?: ServerResponse & { req?: IncomingMessage } })._httpMessage;
    if (!res) return;
    let channel = channels.get(res);
    if (channel === undefined) {
      channel = String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')
        ? (new URL(res.req?.url ?? '/', 'http://x').searchParams.get('channel') ?? 'all')
        : null;
      // Known once the headers are set: a response written to before them is looked at again.
      if (res.headersSent) channels.set(res, channel);
    }
    if (channel !== null) writes[channel] = (writes[channel] ?? 0) + 1;
  };
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (this: Socket, ...a: unknown[]) => void>;
  for (const m of ['_write', '_writev'] as const) {
    const own = proto[m];
    proto[m] = function (this: Socket, ...a: unknown[]) {
      count(this);
      own.apply(this, a);
    };
  }
  process.on('SIGUSR2', () => writeFileSync(writesFile, JSON.stringify(writes)));
}
process.stdout.write(JSON.stringify({ port: (app.getHttpServer().address() as { port: number }).port }) + '\n');
