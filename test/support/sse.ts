import { EventSource } from 'eventsource';

export interface SseEvent {
  type: string;
  id: string;
  data: any;
}

/**
 * A real SSE client (the `eventsource` package) that records every named event. `next(type)` waits for the
 * next event of a type (or any listed type).
 */
export class SseRecorder {
  readonly events: SseEvent[] = [];
  private readonly es: EventSource;
  private waiters: Array<{
    types: string[];
    from: number;
    resolve: (e: SseEvent) => void;
    reject: (e: Error) => void;
    timer: NodeJS.Timeout;
  }> = [];
  error: unknown = null;

  /** `events`: more event names to record (an opportunity type a test registers). */
  constructor(url: string, opts: { lastEventId?: string; headers?: Record<string, string>; events?: string[] } = {}) {
    this.es = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...(init?.headers as Record<string, string>),
            ...(opts.headers ?? {}),
            ...(opts.lastEventId ? { 'Last-Event-ID': opts.lastEventId } : {}),
          },
        }),
    });
    const names = [
      'connected',
      'snapshot',
      'snapshot:complete',
      'odds:update',
      'odds:locked',
      'odds:removed',
      'ev:detected',
      'ev:expired',
      'arb:detected',
      'arb:expired',
      'middles:detected',
      'middles:expired',
      'low_hold:detected',
      'low_hold:expired',
      'gamestate:snapshot',
      'gamestate:update',
      'gamestate:removed',
      'heartbeat',
      'error',
      ...(opts.events ?? []),
    ];
    for (const n of names) {
      this.es.addEventListener(n, (ev: MessageEvent) => {
        let data: unknown = ev.data;
        try {
          data = JSON.parse(ev.data as string);
        } catch {
          /* keep text */
        }
        const e = { type: n, id: ev.lastEventId, data };
        this.events.push(e);
        for (const w of [...this.waiters]) {
          if (w.types.includes(n)) {
            clearTimeout(w.timer);
            this.waiters = this.waiters.filter((x) => x !== w);
            w.resolve(e);
          }
        }
      });
    }
    this.es.onerror = (err) => {
      this.error = err;
    };
  }

  next(types: string | string[], timeoutMs = 10_000): Promise<SseEvent> {
    const list = Array.isArray(types) ? types : [types];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${list.join('/')} within ${timeoutMs} ms; saw ${this.events.map((e) => e.type).join(', ')}`)),
        timeoutMs,
      );
      this.waiters.push({ types: list, from: this.events.length, resolve, reject, timer });
    });
  }

  /** Waits for an event already received or still to come. */
  async seen(type: string, timeoutMs = 10_000): Promise<SseEvent> {
    return this.events.find((e) => e.type === type) ?? this.next(type, timeoutMs);
  }

  of(type: string): SseEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  close(): void {
    this.es.close();
    for (const w of this.waiters) clearTimeout(w.timer);
    this.waiters = [];
  }
}
