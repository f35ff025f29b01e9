import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { Clock, type Timer } from '../../common/time/clock.js';
import { Leadership } from './leadership.service.js';

/**
 * Which instances run a job. `leader`: only the active worker (writes, purges, snapshots: one instance does
 * them for all); `replicas`: only the instances that follow it (catching up with the store); `all`: every
 * instance (its own flushes, heartbeats, detection re-scans). Judged at every run, so a standby that takes
 * over starts running the leader's jobs at their next tick without re-registering anything.
 */
export type JobRunsOn = 'all' | 'leader' | 'replicas';

export interface JobOptions {
  /** Default `all`. */
  runsOn?: JobRunsOn;
  /**
   * Run even when `SCHEDULERS=false`. Routine jobs (flushes, purges, re-scans, polls) are off then and tests call
   * the use case themselves; a job that keeps an instance correct (catching up after a gap, re-reading the keys
   * of open streams) always runs, on the injected clock, so a test moves it with a manual clock.
   */
  always?: boolean;
}

interface Job {
  timer: Timer;
  due: number;
  every: number | null;
  /** The run under way (with the one it owes, see `every`), or null. */
  running: Promise<void> | null;
  /** A tick came while a run was under way: one more run follows it. */
  owed: boolean;
}

/**
 * The service's scheduled jobs, by name, on the injected clock and listed in `@nestjs/schedule`'s
 * SchedulerRegistry (`getIntervals()` / `getTimeouts()` name every job). Where a job may run (leader only,
 * replicas only) is declared once, in its options. A job's failure is logged, never thrown.
 */
@Injectable()
export class Jobs implements BeforeApplicationShutdown {
  private readonly logger = new Logger('jobs');
  private readonly jobs = new Map<string, Job>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly registry: SchedulerRegistry,
    private readonly leadership: Leadership,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Runs `run` every `ms` under `name` (a second registration of a name replaces the first). A job never overlaps
   * itself: the ticks that come while a run is under way (a slow purge, a database that stalls, a manual clock
   * moved by a day) make one more run once it ends, at the time then, instead of piling up on the pool.
   */
  every(name: string, ms: number, run: () => unknown, opts: JobOptions = {}): void {
    if (!this.enabled(opts)) return;
    this.cancel(name);
    const job: Job = { timer: { cancel: () => undefined }, due: this.clock.now() + ms, every: ms, running: null, owed: false };
    job.timer = this.clock.setInterval(() => {
      job.due = this.clock.now() + ms;
      if (job.running) {
        job.owed = true;
        return job.running;
      }
      const first = this.execute(name, run, opts);
      // A run that finished at once (synchronous work) owes nothing.
      if (!(first instanceof Promise)) return first;
      job.running = this.drain(job, first, name, run, opts);
      return job.running;
    }, ms);
    this.jobs.set(name, job);
    this.registry.addInterval(name, job.timer);
  }

  /** Runs `run` once, `ms` from now, under `name`; replaces a pending run of the same name. */
  after(name: string, ms: number, run: () => unknown, opts: JobOptions = {}): void {
    if (!this.enabled(opts)) return;
    this.cancel(name);
    const job: Job = { timer: { cancel: () => undefined }, due: this.clock.now() + ms, every: null, running: null, owed: false };
    job.timer = this.clock.setTimeout(() => {
      this.forget(name, job);
      return this.execute(name, run, opts);
    }, ms);
    this.jobs.set(name, job);
    this.registry.addTimeout(name, job.timer);
  }

  /** Cancels a job (nothing if there is none). */
  cancel(name: string): void {
    const job = this.jobs.get(name);
    if (!job) return;
    job.timer.cancel();
    this.forget(name, job);
  }

  /** When the job runs next (epoch ms on the clock), or null when it is not scheduled. */
  next(name: string): number | null {
    return this.jobs.get(name)?.due ?? null;
  }

  /** The names of the scheduled jobs. */
  names(): string[] {
    return [...this.jobs.keys()].sort();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    for (const name of [...this.jobs.keys()]) this.cancel(name);
  }

  private enabled(opts: JobOptions): boolean {
    return !this.stopped && (opts.always === true || this.config.schedulers);
  }

  private forget(name: string, job: Job): void {
    if (this.jobs.get(name) !== job) return;
    this.jobs.delete(name);
    if (job.every === null) {
      if (this.registry.doesExist('timeout', name)) this.registry.deleteTimeout(name);
    } else if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
  }

  /** Awaits a run, then the runs owed meanwhile, one at a time. */
  private async drain(job: Job, first: Promise<void>, name: string, run: () => unknown, opts: JobOptions): Promise<void> {
    try {
      await first;
      while (job.owed && !this.stopped && this.jobs.get(name) === job) {
        job.owed = false;
        await this.execute(name, run, opts);
      }
    } finally {
      job.owed = false;
      job.running = null;
    }
  }

  /** One run, where `runsOn` allows it; a failure is logged. Returns a promise only when the run is asynchronous. */
  private execute(name: string, run: () => unknown, opts: JobOptions): Promise<void> | undefined {
    if (this.stopped || !runsHere(opts.runsOn ?? 'all', this.leadership.isLeader)) return undefined;
    const failed = (err: unknown) => this.logger.warn({ msg: 'job failed', job: name, error: (err as Error).message });
    try {
      const out = run();
      if (out instanceof Promise) return out.then(() => undefined, failed);
    } catch (err) {
      failed(err);
    }
    return undefined;
  }
}

/** Whether a job for `runsOn` runs on an instance that is (or is not) the active worker. */
export function runsHere(runsOn: JobRunsOn, leader: boolean): boolean {
  switch (runsOn) {
    case 'all':
      return true;
    case 'leader':
      return leader;
    case 'replicas':
      return !leader;
  }
}
