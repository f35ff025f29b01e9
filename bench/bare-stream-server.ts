// Child process of the stream benchmark: the floor of its fan-out. A bare node:http server that answers the
// benchmark's requests with no service behind them: the event and book lists it asks for, SSE streams, and an
// ingest route that parses the body and writes frames of the service's sizes to every stream in one write each,
// the odds streams first, then the opportunity streams (as the service does: its odds-only streams wait for no
// evaluation). What the service adds on top of this (validation, the board, detection, rendering) is its own cost;
// what this costs is the machine's (a system call per socket, the clients reading on the same cores).
import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';

const books = ['draftkings', 'fanduel', 'betmgm', 'caesars', 'pinnacle', 'bet365', 'betrivers', 'espnbet'];
const start = new Date(Date.now() + 2 * 3_600_000).toISOString();
const event = { id: 'nba_bare_event', home_team: 'Home Team', away_team: 'Away Team', start_time: start };

/** A frame whose data line is `size` bytes of JSON, as the service's frames of that kind measured. */
function frame(id: string, name: string, size: number): string {
  const head = `{"type":"${name}","pad":"`;
  return `id: ${id}\nevent: ${name}\ndata: ${head}${'x'.repeat(Math.max(0, size - head.length - 2))}"}\n\n`;
}

/** Frame sizes of the service on the benchmark's event (bytes of each data line, measured with curl). */
const ODDS_UPDATE = 3_470;
const OPENED = [
  ['ev:detected', 1_769],
  ['arb:detected', 2_704],
  ['low_hold:detected', 3_163],
] as const;
const CLOSED = [
  ['ev:expired', 77],
  ['arb:expired', 77],
  ['low_hold:expired', 38],
] as const;

const odds: ServerResponse[] = [];
const opps: ServerResponse[] = [];
let seq = 0;
/** Writes per channel, written to BENCH_WRITES_FILE on SIGUSR2 (the benchmark's count; one system call each). */
const writes = { odds: 0, opportunities: 0 };
const writesFile = process.env.BENCH_WRITES_FILE;
process.on('SIGUSR2', () => {
  if (writesFile) writeFileSync(writesFile, JSON.stringify(writes));
});

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/api/v1/events') return json(res, { data: [event] });
  if (url.pathname === '/api/v1/sportsbooks') return json(res, { data: books.map((id) => ({ id })) });
  if (url.pathname === '/api/v1/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('event: snapshot:complete\ndata: {}\n\n');
    (url.searchParams.get('channel') === 'odds' ? odds : opps).push(res);
    req.on('close', () => {
      for (const list of [odds, opps]) if (list.includes(res)) list.splice(list.indexOf(res), 1);
    });
    return;
  }
  if (url.pathname === '/api/v1/admin/ingest') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { quotes: Array<{ price: { decimal: number } }> };
      json(res, { accepted: body.quotes.length });
      seq++;
      const opened = body.quotes.some((q) => q.price.decimal > 2);
      const o = Buffer.from(frame(`${seq}-0`, 'odds:update', ODDS_UPDATE));
      const a = Buffer.from((opened ? OPENED : CLOSED).map(([name, size], i) => frame(`${seq}-${i}`, name, size)).join(''));
      // Each write reaches the kernel at once, not on the next tick's uncork (as the service's transport does).
      for (const r of odds) {
        r.write(o);
        r.socket?.uncork();
        writes.odds++;
      }
      for (const r of opps) {
        r.write(a);
        r.socket?.uncork();
        writes.opportunities++;
      }
    });
    return;
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: (server.address() as { port: number }).port }) + '\n');
});
