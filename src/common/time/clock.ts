/**
 * The one source of time. Services take a Clock instead of calling Date.now(), so tests can move time.
 * The abstract class doubles as the Nest injection token.
 */
export abstract class Clock {
  abstract now(): number;
  date(): Date {
    return new Date(this.now());
  }
  iso(): string {
    return new Date(this.now()).toISOString();
  }
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

export class ManualClock extends Clock {
  constructor(private current: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {
    super();
  }
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
