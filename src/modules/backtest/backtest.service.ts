import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Account } from '../../common/auth/account.js';
import { ApiError, badRequest } from '../../common/http/api-error.js';
import { envelope, type DataEnvelope } from '../../common/http/envelope.js';
import type { DevigMethod } from '../../math/index.js';
import { runBacktest, type BacktestReport } from './backtest.engine.js';
import { betsCsv } from './backtest.output.js';
import { DEFAULT_KELLY_CAP, DEFAULT_RULE, ruleProblem, type BacktestRule } from './backtest.rule.js';
import type { BacktestBody } from './dto/backtest.body.js';
import { SimulatedSource } from './simulated-source.js';

/** Backtests one account may run at once (another start is refused with 429 until one finishes). */
export const MAX_RUNNING_PER_ACCOUNT = 2;
/** Finished backtests kept per account (in memory: a restart forgets them); the oldest goes first. */
const KEPT_PER_ACCOUNT = 20;

interface Job {
  id: string;
  accountId: string;
  status: 'running' | 'done' | 'failed';
  progress: number;
  bets: number;
  createdAt: number;
  finishedAt: number | null;
  rule: BacktestRule;
  report: BacktestReport | null;
  error: string | null;
}

/** Backtest jobs: started by POST /historical/backtest, read by GET /historical/backtest/{id}; one account's jobs only. */
@Injectable()
export class BacktestService implements OnModuleDestroy {
  private readonly log = new Logger('Backtest');
  private readonly jobs = new Map<string, Job>();
  /** Stops the running replays when the application closes. */
  private readonly stop = new AbortController();

  onModuleDestroy(): void {
    this.stop.abort();
  }

  start(account: Account, body: BacktestBody): DataEnvelope<{ id: string; status: string }> {
    const rule = ruleOf(body);
    const mine = [...this.jobs.values()].filter((j) => j.accountId === account.accountId);
    if (mine.filter((j) => j.status === 'running').length >= MAX_RUNNING_PER_ACCOUNT)
      throw new ApiError(
        'rate_limited',
        `at most ${MAX_RUNNING_PER_ACCOUNT} backtests may run at once per account; wait for it to finish`,
        {
          retry_after: 30,
        },
      );
    const finished = mine.filter((j) => j.status !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - KEPT_PER_ACCOUNT + 1))) this.jobs.delete(old.id);
    const job: Job = {
      id: randomUUID(),
      accountId: account.accountId,
      status: 'running',
      progress: 0,
      bets: 0,
      createdAt: Date.now(),
      finishedAt: null,
      rule,
      report: null,
      error: null,
    };
    this.jobs.set(job.id, job);
    const source = new SimulatedSource({ days: body.days, seed: body.seed ?? 42, events: body.events ?? 12, stepMs: 60_000 });
    runBacktest(source, rule, {
      onProgress: (p) => {
        job.progress = p.done;
        job.bets = p.bets;
      },
      yieldEvery: 5,
      signal: this.stop.signal,
    }).then(
      (report) => {
        job.report = report;
        job.status = 'done';
        job.progress = 1;
        job.finishedAt = Date.now();
      },
      (err: unknown) => {
        job.status = 'failed';
        job.error = (err as Error).message;
        job.finishedAt = Date.now();
        this.log.warn(`backtest ${job.id} failed: ${job.error}`);
      },
    );
    return envelope({ id: job.id, status: job.status });
  }

  get(account: Account, id: string): DataEnvelope<Record<string, unknown>> {
    const job = this.find(account, id);
    return envelope({
      id: job.id,
      status: job.status,
      progress: Math.round(job.progress * 1000) / 10,
      bets_so_far: job.bets,
      created_at: new Date(job.createdAt).toISOString(),
      finished_at: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
      error: job.error,
      report: job.report,
    });
  }

  csv(account: Account, id: string): { filename: string; body: string } {
    const job = this.find(account, id);
    if (!job.report) throw new ApiError('not_found', `backtest ${id} has no bets yet (status ${job.status})`);
    return { filename: `backtest_${id}.csv`, body: betsCsv(job.report.bets) };
  }

  private find(account: Account, id: string): Job {
    const job = this.jobs.get(id);
    if (!job || job.accountId !== account.accountId) throw new ApiError('not_found', `no backtest ${id} for this account`);
    return job;
  }
}

/** The rule of a request body (defaults as the CLI's), or a 400 naming what is wrong. */
export function ruleOf(body: BacktestBody): BacktestRule {
  const stake = body.stake ?? (body.kelly_fraction !== undefined ? 'kelly' : 'flat');
  if (stake === 'flat' && (body.kelly_fraction !== undefined || body.cap !== undefined))
    throw badRequest('kelly_fraction and cap apply to stake "kelly"', { parameter: 'stake' });
  if (stake === 'kelly' && body.units !== undefined) throw badRequest('units applies to stake "flat"', { parameter: 'stake' });
  const rule: BacktestRule = {
    minEv: body.min_ev ?? DEFAULT_RULE.minEv,
    devig: (body.devig as DevigMethod | undefined) ?? DEFAULT_RULE.devig,
    books: body.books ?? null,
    staking:
      stake === 'kelly'
        ? { kind: 'kelly', fraction: body.kelly_fraction ?? 0.25, cap: body.cap ?? DEFAULT_KELLY_CAP }
        : { kind: 'flat', units: body.units ?? 1 },
    delaySeconds: body.delay_seconds ?? 0,
    bankroll: body.bankroll ?? DEFAULT_RULE.bankroll,
  };
  const problem = ruleProblem(rule);
  if (problem) throw badRequest(problem);
  return rule;
}
