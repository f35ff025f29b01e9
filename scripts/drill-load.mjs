// Read load for the fault drill: CONCURRENCY loops per URL for SECONDS, each request's outcome kept.
// Every answer that is not 2xx (or a network error) is written to OUT as one JSON line
// {t, url, status, body}; the last line is the totals {total, ok, failed}.
// Usage: node scripts/drill-load.mjs OUT KEY SECONDS CONCURRENCY URL...
import { appendFileSync, writeFileSync } from 'node:fs';

const [out, key, seconds, concurrency, ...urls] = process.argv.slice(2);
if (!out || !key || !urls.length) {
  console.error('usage: drill-load.mjs OUT KEY SECONDS CONCURRENCY URL...');
  process.exit(2);
}
writeFileSync(out, '');
const end = Date.now() + Number(seconds) * 1000;
const totals = { total: 0, ok: 0, failed: 0 };

async function loop(url) {
  while (Date.now() < end) {
    const t = Date.now();
    let status = 0;
    let body;
    try {
      const res = await fetch(url, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
      status = res.status;
      body = status >= 200 && status < 300 ? '' : (await res.text()).slice(0, 300);
      if (!body) await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      body = String(err?.cause?.code ?? err?.name ?? err).slice(0, 300);
    }
    totals.total++;
    if (status >= 200 && status < 300) totals.ok++;
    else {
      totals.failed++;
      appendFileSync(out, JSON.stringify({ t, url, status, body }) + '\n');
    }
  }
}

await Promise.all(urls.flatMap((url) => Array.from({ length: Number(concurrency) }, () => loop(url))));
appendFileSync(out, JSON.stringify(totals) + '\n');
