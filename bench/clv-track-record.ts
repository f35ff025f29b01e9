// The simulator's own CLV track record (README "CLV track record"): `npm run bench -- clv`.
// The service runs in-process (embedded store, no schedulers) on a manual clock; the market simulator is
// driven through the real pipeline for BENCH_CLV_HOURS simulated hours in BENCH_CLV_TICK_S steps, so games
// are listed, priced, go live (closing lines captured), play and end (graded). Then /historical/clv's report
// is printed, by sport, by book and by devig book, and EV against CLV like with like: over the same bets (those with a
// CLV), by sport, with 95% intervals.
import { benchApp } from './bench-app.js';
import { ManualClock } from '../src/common/time/clock.js';
import type { Account } from '../src/common/auth/account.js';
import { Catalog } from '../src/config/catalog.js';
import { ClosingLinesService } from '../src/modules/closing-lines/closing-lines.service.js';
import { likeForLike, type ClvGroupStats, type MeanInterval } from '../src/modules/clv/clv.math.js';
import { ClvRepository } from '../src/modules/clv/clv.repository.js';
import { ClvService } from '../src/modules/clv/clv.service.js';
import { IngestionService } from '../src/modules/ingestion/ingestion.service.js';
import { MarketSimulator } from '../src/modules/ingestion/simulator/simulator.js';
import { save } from './run.js';

/** One group of the report: the track record's figures (ClvGroupStats) and what it groups by. */
type Group = ClvGroupStats & { group_key: string };

export async function clvBench(): Promise<void> {
  const hours = Number(process.env.BENCH_CLV_HOURS ?? 6);
  const tickS = Number(process.env.BENCH_CLV_TICK_S ?? 60);
  const seed = Number(process.env.BENCH_CLV_SEED ?? 42);
  const events = Number(process.env.BENCH_CLV_EVENTS ?? 40);
  const start = Date.parse(process.env.BENCH_CLV_START ?? '2026-11-22T16:00:00Z');
  const clock = new ManualClock(start);
  // Prices need not reach the database here (only the closing lines and the track record do).
  const app = await benchApp({ API_KEYS: 'enterprise:sk_bench_ent_000001' }, { clock, writes: false });
  const ingestion = app.get(IngestionService);
  const clv = app.get(ClvService);
  const closing = app.get(ClosingLinesService);
  const days = Number(process.env.BENCH_CLV_DAYS ?? 1);
  const sim = new MarketSimulator(new Catalog(), { seed, events, days, tickMs: tickS * 1000, start });
  const wall = performance.now();
  ingestion.ingest(sim.start(start), start, { backfill: true });
  const steps = Math.round((hours * 3600) / tickS);
  for (let i = 1; i <= steps; i++) {
    clock.advance(tickS * 1000);
    ingestion.ingest(sim.poll(clock.now()), clock.now());
    if (i % Math.round(600 / tickS) === 0) {
      await clv.settle();
      process.stdout.write(
        `\r${new Date(clock.now()).toISOString()} recorded ${clv.stats.recorded}, closed ${clv.stats.closed}, graded ${clv.stats.graded}, closing lines ${closing.stats.captured}   `,
      );
    }
  }
  await clv.settle();
  console.log(
    `\nsimulated ${hours} h in ${((performance.now() - wall) / 1000).toFixed(0)} s (seed ${seed}, ${events} events over ${days} day(s), ${tickS} s steps, from ${new Date(start).toISOString()})`,
  );
  const account: Account = { keyId: 'bench', name: null, tier: 'enterprise', arbitrageEnabled: true } as Account;
  const from = new Date(start - 86_400_000).toISOString();
  const report = async (group_by: string) =>
    (await clv.report(account, { from, group_by } as never)).data as { overall: Omit<Group, 'group_key'>; groups: Group[] };
  const fmt = (v: number | null, suffix = '') => (v === null ? '-' : `${v.toFixed(2)}${suffix}`);
  const line = (key: string, g: Omit<Group, 'group_key'>) =>
    `| ${key} | ${g.total_predictions} | ${g.clv_count} | ${fmt(g.avg_ev_percent, '%')} | ${fmt(g.avg_clv_percent, '%')} | ${g.clv_count ? ((g.beat_close / g.clv_count) * 100).toFixed(1) : '-'}% | ${g.wins}-${g.losses}-${g.pushes} | ${fmt(g.roi_percent, '%')} |`;
  const out: Record<string, unknown> = {
    hours,
    tickS,
    seed,
    events,
    days,
    start: new Date(start).toISOString(),
    closing_lines: closing.stats.captured,
  };
  for (const by of ['sport', 'devig_book', 'sportsbook']) {
    const r = await report(by);
    out[by] = r;
    console.log(
      `\nby ${by}\n\n| ${by} | +EV bets | with CLV | avg EV at detection | avg CLV | beat the close | W-L-P | flat-stake ROI |\n|---|---|---|---|---|---|---|---|`,
    );
    for (const g of r.groups) console.log(line(g.group_key, g));
    console.log(line('**all**', r.overall));
  }
  // Like with like: EV at detection and CLV over the same bets (a CLV known, not void), by sport.
  const rows = await app.get(ClvRepository).report({ from: start - 86_400_000, to: clock.now() });
  const ci = (m: MeanInterval | null) =>
    m === null ? '-' : Number.isNaN(m.low) ? `${m.mean.toFixed(2)}%` : `${m.mean.toFixed(2)}% [${m.low.toFixed(2)}, ${m.high.toFixed(2)}]`;
  const sports = [...new Set(rows.map((r) => r.sport))].sort();
  const paired: Record<string, ReturnType<typeof likeForLike>> = {};
  console.log(
    '\nlike with like (the bets with a CLV; 95% intervals, normal approximation)\n\n| sport | bets | avg EV at detection | avg CLV | CLV - EV |\n|---|---|---|---|---|',
  );
  for (const sp of [...sports, '**all**']) {
    const l = likeForLike(sp === '**all**' ? rows : rows.filter((r) => r.sport === sp));
    paired[sp] = l;
    console.log(`| ${sp} | ${l.n} | ${ci(l.ev)} | ${ci(l.clv)} | ${ci(l.clvMinusEv)} |`);
  }
  out.like_for_like = paired;
  save('clv', out);
  await app.close();
}

if (process.argv[1]?.endsWith('clv-track-record.js')) {
  await clvBench();
  process.exit(0);
}
