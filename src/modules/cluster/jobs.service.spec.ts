import { beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ManualClock } from '../../common/time/clock.js';
import type { AppConfig } from '../../config/env.js';
import { Jobs, runsHere } from './jobs.service.js';
import type { Leadership } from './leadership.service.js';

beforeAll(() => Logger.overrideLogger(false));

function setup(schedulers = true) {
  const clock = new ManualClock(0);
  const registry = new SchedulerRegistry();
  const leadership = { isLeader: true };
  const jobs = new Jobs(clock, registry, leadership as Leadership, { schedulers } as AppConfig);
  return { clock, registry, leadership, jobs };
}

describe('Jobs', () => {
  it('names every job in the SchedulerRegistry and says when each runs next', async () => {
    const { clock, registry, jobs } = setup();
    let flushes = 0;
    jobs.every('board:flush', 1000, () => flushes++);
    jobs.after('board:first-resync', 10_000, () => undefined);
    expect(registry.getIntervals()).toEqual(['board:flush']);
    expect(registry.getTimeouts()).toEqual(['board:first-resync']);
    expect(jobs.names()).toEqual(['board:first-resync', 'board:flush']);
    expect(jobs.next('board:flush')).toBe(1000);
    await clock.advance(3500);
    expect(flushes).toBe(3);
    expect(jobs.next('board:flush')).toBe(4000);
    await clock.advance(6500);
    // A one-off job leaves the registry once it has run.
    expect(registry.getTimeouts()).toEqual([]);
    expect(jobs.next('board:first-resync')).toBeNull();
  });

  it('a leader-only job runs only while this instance leads, a replicas job only while it does not', async () => {
    const { clock, leadership, jobs } = setup();
    const runs: string[] = [];
    jobs.every('purge', 100, () => runs.push(`purge@${clock.now()}`), { runsOn: 'leader' });
    jobs.every('resync', 100, () => runs.push(`resync@${clock.now()}`), { runsOn: 'replicas' });
    await clock.advance(100);
    leadership.isLeader = false;
    await clock.advance(100);
    expect(runs).toEqual(['purge@100', 'resync@200']);
    expect([runsHere('all', false), runsHere('leader', false), runsHere('replicas', true)]).toEqual([true, false, false]);
  });

  it('with SCHEDULERS=false only the jobs marked always are scheduled', async () => {
    const { clock, jobs } = setup(false);
    const runs: string[] = [];
    jobs.every('routine', 100, () => runs.push('routine'));
    jobs.every('key-check', 100, () => runs.push('key-check'), { always: true });
    await clock.advance(100);
    expect(runs).toEqual(['key-check']);
    expect(jobs.names()).toEqual(['key-check']);
  });

  it('a second registration replaces the first; cancel and shutdown stop jobs; a failure is logged, not thrown', async () => {
    const { clock, registry, jobs } = setup();
    const runs: string[] = [];
    jobs.after('catch-up', 100, () => runs.push('first'));
    jobs.after('catch-up', 300, () => runs.push('second'));
    jobs.every('failing', 50, () => {
      throw new Error('store unreachable');
    });
    await clock.advance(200);
    expect(runs).toEqual([]);
    await clock.advance(100);
    expect(runs).toEqual(['second']);
    jobs.every('tick', 10, () => runs.push('tick'));
    jobs.cancel('tick');
    jobs.beforeApplicationShutdown();
    jobs.every('late', 10, () => runs.push('late'));
    await clock.advance(1000);
    expect(runs).toEqual(['second']);
    expect(registry.getIntervals()).toEqual([]);
  });

  it('a job never overlaps itself: ticks during a run make one more run when it ends, at the time then', async () => {
    const { clock, jobs } = setup();
    const runs: number[] = [];
    let inFlight = 0;
    let most = 0;
    jobs.every('purge', 100, async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      runs.push(clock.now());
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    });
    // A day of ticks at once (a manual clock moved far, or a database that stalled): 1 run, then 1 owed run.
    await clock.advance(1000);
    expect(runs).toEqual([100, 1000]);
    expect(most).toBe(1);
    // Once idle, every tick runs again.
    await clock.advance(100);
    await clock.advance(100);
    expect(runs).toEqual([100, 1000, 1100, 1200]);
  });

  it('a synchronous job runs at every tick, each at its own time', async () => {
    const { clock, jobs } = setup();
    const runs: number[] = [];
    jobs.every('count', 100, () => runs.push(clock.now()));
    await clock.advance(300);
    expect(runs).toEqual([100, 200, 300]);
  });

  it('a failing asynchronous run is logged and the job keeps its schedule', async () => {
    const { clock, jobs } = setup();
    let calls = 0;
    jobs.every('flaky', 100, async () => {
      calls++;
      throw new Error('pool timeout');
    });
    await clock.advance(100);
    await clock.advance(100);
    expect(calls).toBe(2);
  });
});
