/** A pending timer of a Clock. */
export interface Timer {
  cancel(): void;
}

/**
 * The one source of time: every "now" and every timer of the service's own schedule (jobs, back-off, catch-up,
 * expiry checks) goes through the injected Clock, so tests can move time. The abstract class doubles as the
 * Nest injection token.
 *
 * What stays on Node's own timers, on purpose: time limits on I/O (a socket's grace period before it is
 * destroyed, a database or Redis call's timeout, polling a socket's send buffer). They bound how long real I/O
 * may take, which passes in real time whatever the clock says; on a manual clock they would never fire.
 */
export abstract class Clock {
  abstract now(): number;
  /** Runs `fn` once, `ms` from now. */
  abstract setTimeout(fn: () => unknown, ms: number): Timer;
  /** Runs `fn` every `ms` from now on. */
  abstract setInterval(fn: () => unknown, ms: number): Timer;
  date(): Date {
    return new Date(this.now());
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** Wall time and Node's timers (unref'd: a pending job never keeps the process alive; the server does). */
export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
  setTimeout(fn: () => unknown, ms: number): Timer {
    const t = setTimeout(fn, ms);
    t.unref();
    return { cancel: () => clearTimeout(t) };
  }
  setInterval(fn: () => unknown, ms: number): Timer {
    const t = setInterval(fn, ms);
    t.unref();
    return { cancel: () => clearInterval(t) };
  }
}

interface ManualTimer {
  seq: number;
  due: number;
  every: number | null;
  fn: () => unknown;
  cancelled: boolean;
}

/**
 * Time that moves only when a test moves it. Timers run when `advance` (or `set`) passes their due time, in
 * due order, each with `now()` at its own due time, so a test sees exactly the runs a real clock would make.
 */
export class ManualClock extends Clock {
  private readonly timers: ManualTimer[] = [];
  private seq = 0;

  constructor(private current: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {
    super();
  }
  now(): number {
    return this.current;
  }
  setTimeout(fn: () => unknown, ms: number): Timer {
    return this.add(fn, ms, null);
  }
  setInterval(fn: () => unknown, ms: number): Timer {
    return this.add(fn, ms, Math.max(1, ms));
  }

  /** Timers still to run (cancelled ones excluded). */
  get pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /**
   * Moves time to `ms`, running every timer due by then (an interval as many times as it falls due). The time
   * is moved at once (synchronously); the promise settles when what the timers started (the promises their
   * callbacks returned) has settled, so `await clock.set(...)` sees their effects. A timer that such an
   * asynchronous run schedules counts from the time reached.
   */
  set(ms: number): Promise<void> {
    const started: unknown[] = [];
    for (;;) {
      const next = this.nextDue(ms);
      if (!next) break;
      this.current = Math.max(this.current, next.due);
      if (next.every === null) next.cancelled = true;
      else next.due += next.every;
      started.push(run(next.fn));
    }
    this.current = ms;
    this.timers.splice(0, this.timers.length, ...this.timers.filter((t) => !t.cancelled));
    return Promise.allSettled(started).then(() => undefined);
  }

  /** `set(now + ms)`. */
  advance(ms: number): Promise<void> {
    return this.set(this.current + ms);
  }

  private add(fn: () => unknown, ms: number, every: number | null): Timer {
    const t: ManualTimer = { seq: this.seq++, due: this.current + Math.max(0, ms), every, fn, cancelled: false };
    this.timers.push(t);
    return { cancel: () => (t.cancelled = true) };
  }

  private nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const t of this.timers) {
      if (t.cancelled || t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

function run(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    return Promise.reject(err);
  }
}
