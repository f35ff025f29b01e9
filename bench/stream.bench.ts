import { request } from 'node:http';
import { join } from 'node:path';
import { startChild } from './child.js';
import { BENCH_DIR, save } from './run.js';

interface Client {
  kind: 'odds' | 'opps';
  ready: boolean;
}

/**
 * Stream latency with 1,000 concurrent SSE clients: the time from a price change entering the board (the row's
 * own `timestamp`, set at ingest) to the matching odds:update frame read by each client, and from detection
 * (`detected_at`) to the arb:detected frame. Half the clients watch one event's odds, half the opportunities.
 */
export async function streamBench(): Promise<void> {
  const streams = Number(process.env.BENCH_STREAMS ?? 1000);
  const { child, info } = await startChild<{ port: number }>(join(BENCH_DIR, 'stream-server.js'));
  const base = `http://127.0.0.1:${info.port}`;
  const key = (i: number) => `sk_bench_stream_${String(i % 50).padStart(4, '0')}`;
  const events = (await (await fetch(`${base}/api/v1/events?league=nba&limit=1`, { headers: { 'X-API-Key': key(0) } })).json()) as {
    data: Array<{ id: string; home_team: string; away_team: string; start_time: string }>;
  };
  const ev = events.data[0]!;
  const oddsLat: number[] = [];
  const arbLat: number[] = [];
  let marker = 0;
  const clients: Client[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const kind: Client['kind'] = i % 2 ? 'opps' : 'odds';
      const path =
        kind === 'odds'
          ? `/api/v1/stream?channel=odds&event=${ev.id}&sportsbook=draftkings&api_key=${key(i)}`
          : `/api/v1/stream?channel=opportunities&event=${ev.id}&min_profit=0&api_key=${key(i)}`;
      const c: Client = { kind, ready: false };
      clients.push(c);
      const req = request(base + path, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let idx: number;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            const event = /^event: (.+)$/m.exec(frame)?.[1];
            if (event === 'snapshot:complete') {
              c.ready = true;
              resolve();
            } else if (event === 'odds:update' && c.ready) {
              const now = Date.now();
              const data = JSON.parse(/^data: (.+)$/m.exec(frame)![1]!) as { odds: Array<{ timestamp: string; odds_decimal: number }> };
              for (const o of data.odds) oddsLat.push(now - Date.parse(o.timestamp));
            } else if (event === 'arb:detected' && c.ready) {
              const now = Date.now();
              const data = JSON.parse(/^data: (.+)$/m.exec(frame)![1]!) as Array<{ detected_at: string }>;
              for (const a of data) arbLat.push(now - Date.parse(a.detected_at));
            }
          }
        });
      });
      req.end();
    });
  // A sane market on the watched event first: every book 1.90 / 1.90.
  const books = (
    (await (await fetch(`${base}/api/v1/sportsbooks?catalog=true`, { headers: { 'X-API-Key': key(0) } })).json()) as {
      data: Array<{ id: string }>;
    }
  ).data.map((b) => b.id);
  const ml = (book: string, side: 'home' | 'away', price: number) => ({
    book,
    league: 'nba',
    homeTeam: ev.home_team,
    awayTeam: ev.away_team,
    startTime: Date.parse(ev.start_time),
    marketType: 'moneyline',
    selection: side === 'home' ? ev.home_team : ev.away_team,
    selectionType: side,
    line: null,
    price: { decimal: price },
  });
  await fetch(`${base}/api/v1/admin/ingest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Admin-Token': 'bench-admin-token-0001' },
    body: JSON.stringify({ source: 'bench', quotes: books.flatMap((b) => [ml(b, 'home', 1.9), ml(b, 'away', 1.9)]) }),
  });
  for (let i = 0; i < streams; i += 100) await Promise.all(Array.from({ length: Math.min(100, streams - i) }, (_, j) => open(i + j)));
  console.log(`${clients.filter((c) => c.ready).length} streams ready`);
  const league = 'nba';
  const arbHome = 2.2; // with every book's away price at 1.90: 1/2.2 + 1/1.9 = 0.9809, a 1.95 % arbitrage
  const quote = (price: number) => ({
    book: 'draftkings',
    league,
    homeTeam: ev.home_team,
    awayTeam: ev.away_team,
    startTime: Date.parse(ev.start_time),
    marketType: 'moneyline',
    selection: ev.home_team,
    selectionType: 'home',
    line: null,
    price: { decimal: price },
  });
  for (let round = 0; round < 40; round++) {
    marker++;
    // A long price on the home side makes an arbitrage with the books' away prices; the next round removes it.
    const price = round % 2 === 0 ? arbHome + (marker % 7) / 1000 : 1.9;
    await fetch(`${base}/api/v1/admin/ingest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Admin-Token': 'bench-admin-token-0001' },
      body: JSON.stringify({ source: 'bench', quotes: [quote(price)] }),
    });
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 1000));
  child.kill();
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
  };
  const result = {
    streams,
    odds_update: { frames: oddsLat.length, p50_ms: pct(oddsLat, 50), p99_ms: pct(oddsLat, 99) },
    arb_detected: { frames: arbLat.length, p50_ms: pct(arbLat, 50), p99_ms: pct(arbLat, 99) },
  };
  console.log('\n| streams | frame | frames read | p50 | p99 |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| ${streams} | odds:update | ${result.odds_update.frames} | ${result.odds_update.p50_ms} ms | ${result.odds_update.p99_ms} ms |`,
  );
  console.log(
    `| ${streams} | arb:detected | ${result.arb_detected.frames} | ${result.arb_detected.p50_ms} ms | ${result.arb_detected.p99_ms} ms |`,
  );
  save('stream', result);
}
