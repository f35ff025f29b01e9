import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { AppConfig } from '../config/env.js';
import { DEVIG_METHODS, type DevigMethod } from '../math/index.js';
import { runBacktest, type BacktestReport } from '../modules/backtest/backtest.engine.js';
import { betsCsv, reportHtml, reportTable } from '../modules/backtest/backtest.output.js';
import { DEFAULT_KELLY_CAP, DEFAULT_RULE, MAX_SIMULATED_DAYS, ruleProblem, type BacktestRule } from '../modules/backtest/backtest.rule.js';
import { FileSource } from '../modules/backtest/file-source.js';
import type { ReplaySource } from '../modules/backtest/replay-source.js';
import { SimulatedSource } from '../modules/backtest/simulated-source.js';

type Flags = Record<string, string | boolean | undefined>;

export class BacktestUsageError extends Error {}

function numberFlag(flags: Flags, name: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new BacktestUsageError(`--${name} must be a number (got "${String(v)}")`);
  return n;
}

/** The rule the flags describe (defaults: EV >= 2%, power devig, every book, flat 1 unit, no delay, bankroll 1000). */
export function ruleFromFlags(flags: Flags): BacktestRule {
  const kelly = numberFlag(flags, 'kelly');
  const flat = flags['flat'];
  const cap = numberFlag(flags, 'cap');
  if (kelly !== undefined && flat !== undefined) throw new BacktestUsageError('--kelly and --flat are exclusive: one staking');
  if (cap !== undefined && kelly === undefined) throw new BacktestUsageError('--cap applies to --kelly stakes');
  const devig = (flags['devig'] as string | undefined) ?? DEFAULT_RULE.devig;
  if (!DEVIG_METHODS.includes(devig as DevigMethod)) throw new BacktestUsageError(`--devig must be one of ${DEVIG_METHODS.join(', ')}`);
  const books =
    typeof flags['books'] === 'string'
      ? flags['books']
          .split(',')
          .map((b) => b.trim().toLowerCase())
          .filter(Boolean)
      : null;
  const rule: BacktestRule = {
    minEv: numberFlag(flags, 'min-ev') ?? DEFAULT_RULE.minEv,
    devig: devig as DevigMethod,
    books,
    staking:
      kelly !== undefined
        ? { kind: 'kelly', fraction: kelly, cap: cap ?? DEFAULT_KELLY_CAP }
        : { kind: 'flat', units: flat === undefined ? 1 : (numberFlag(flags, 'flat') as number) },
    delaySeconds: numberFlag(flags, 'delay') ?? 0,
    bankroll: numberFlag(flags, 'bankroll') ?? DEFAULT_RULE.bankroll,
  };
  const problem = ruleProblem(rule);
  if (problem) throw new BacktestUsageError(problem);
  return rule;
}

/** `7d`, `7` or `0.5d`: days of simulation. */
export function parseDays(v: string): number {
  const m = /^(\d+(?:\.\d+)?)d?$/.exec(v.trim());
  const days = m ? Number(m[1]) : Number.NaN;
  if (!(days > 0 && days <= MAX_SIMULATED_DAYS))
    throw new BacktestUsageError(`--simulate takes days such as 7d (more than 0, at most ${MAX_SIMULATED_DAYS})`);
  return days;
}

function sourceFromFlags(flags: Flags): ReplaySource {
  const sim = flags['simulate'];
  const file = flags['file'];
  if ((sim === undefined) === (file === undefined))
    throw new BacktestUsageError('backtest needs one window: --simulate DAYS or --file PATH');
  if (typeof file === 'string') {
    for (const f of ['seed', 'events', 'step']) if (flags[f] !== undefined) throw new BacktestUsageError(`--${f} applies to --simulate`);
    return new FileSource(resolve(file), Date.now());
  }
  const seed = numberFlag(flags, 'seed') ?? 42;
  if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31 - 1)
    throw new BacktestUsageError('--seed must be an integer from 0 to 2147483647');
  const events = numberFlag(flags, 'events') ?? 12;
  if (!Number.isInteger(events) || events < 2 || events > 500) throw new BacktestUsageError('--events must be an integer from 2 to 500');
  const step = numberFlag(flags, 'step') ?? 60;
  if (!(step >= 5 && step <= 600)) throw new BacktestUsageError('--step must be from 5 to 600 seconds');
  return new SimulatedSource({ days: parseDays(String(sim)), seed, events, stepMs: step * 1000 });
}

/** Where the files go: --out, else a new directory under DATA_DIR (when set) or the working directory. */
function outDir(flags: Flags, config: AppConfig): string {
  if (typeof flags['out'] === 'string') return resolve(flags['out']);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return process.env['DATA_DIR'] ? join(config.dataDir, 'backtests', stamp) : resolve(`backtest-${stamp}`);
}

/** Writes report.json, bets.csv and report.html into `dir`. */
export function writeReport(dir: string, report: BacktestReport): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(dir, 'bets.csv'), betsCsv(report.bets));
  writeFileSync(join(dir, 'report.html'), reportHtml(report));
}

/** backtest: replays the window, prints the report table, writes the files; a progress bar on stderr (plain lines off a terminal). */
export async function runBacktestCommand(flags: Flags, config: AppConfig): Promise<number> {
  const rule = ruleFromFlags(flags);
  const source = sourceFromFlags(flags);
  const dir = outDir(flags, config);
  const tty = process.stderr.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: 'replaying {bar} {percentage}% | {bets} bets | ETA {eta_formatted}', hideCursor: true, etaBuffer: 50 },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(100, 0, { bets: 0 });
  let lastLine = -1;
  const report = await runBacktest(source, rule, {
    onProgress: (p) => {
      const percent = Math.floor(p.done * 100);
      if (bar) bar.update(percent, { bets: p.bets });
      else if (percent >= lastLine + 10 || (p.done >= 1 && lastLine < 100)) {
        lastLine = p.done >= 1 ? 100 : percent - (percent % 10);
        process.stderr.write(`replaying: ${lastLine}% (${p.bets} bets)\n`);
      }
    },
  });
  bar?.stop();
  writeReport(dir, report);
  console.log(reportTable(report));
  console.log(`\nwrote ${join(dir, 'report.html')}, ${join(dir, 'bets.csv')}, ${join(dir, 'report.json')}`);
  return 0;
}
