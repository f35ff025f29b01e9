import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { Clock } from '../../common/time/clock.js';
import { Jobs } from '../cluster/jobs.service.js';
import { ApiKeysService, keyRefusal, type KeyStatus } from '../accounts/api-keys.service.js';
import { StreamHub } from './stream-hub.js';
import { KEYS_TOPIC } from '../../domain/topics.js';

/** How often the keys of open streams are read again (the backstop for a lost bus message, and expiries). */
export const KEY_CHECK_MS = 2000;
const KEY_CHECK_JOB = 'stream:key-check';

/** The keys whose streams must close now, and why: from the last statuses read, at a time. */
export function keysToClose(statuses: ReadonlyMap<string, KeyStatus>, now: number): Array<{ keyId: string; why: string }> {
  const out: Array<{ keyId: string; why: string }> = [];
  for (const [keyId, status] of statuses) {
    const why = keyRefusal(status, now);
    if (why !== null) out.push({ keyId, why });
  }
  return out;
}

/**
 * Ends the streams of keys that stop working, on every instance within seconds: at once when a key change is
 * announced on the bus (or the bus reports lost messages on that topic), and every KEY_CHECK_MS in any case,
 * reading the keys of the open streams from the store. A key's expiry time is checked at every tick, even when
 * the store cannot be read. Closed streams get an `error` (`unauthorized`) and, on the WebSocket, close 4001.
 */
@Injectable()
export class StreamKeyWatch implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('stream');
  private running: Promise<void> | null = null;
  private again = false;
  private storeFailing = false;
  /** The last status read per streaming key. */
  private readonly known = new Map<string, KeyStatus>();

  constructor(
    private readonly hub: StreamHub,
    private readonly keys: ApiKeysService,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(KEYS_TOPIC, () => void this.check());
    this.bus.onGap(KEYS_TOPIC, () => void this.check());
    // A correctness job, not a routine one: it runs with SCHEDULERS=false too (tests move it with the clock).
    this.jobs.every(KEY_CHECK_JOB, KEY_CHECK_MS, () => this.check(), { always: true });
  }

  onApplicationShutdown(): void {
    this.jobs.cancel(KEY_CHECK_JOB);
  }

  /** Checks the keys of the open streams now; one check at a time (a request meanwhile runs one more after it). */
  check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.checkOnce();
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async checkOnce(): Promise<void> {
    const ids = this.hub.streamingKeys();
    const streaming = new Set(ids);
    for (const id of this.known.keys()) if (!streaming.has(id)) this.known.delete(id);
    if (!ids.length) return;
    try {
      for (const [id, status] of await this.keys.statusOf(ids)) this.known.set(id, status);
      if (this.storeFailing) this.logger.log({ msg: 'stream key checks read the key store again' });
      this.storeFailing = false;
    } catch (err) {
      if (!this.storeFailing)
        this.logger.warn({
          msg: 'stream key checks cannot read the key store; expiry times already read still apply',
          error: (err as Error).message,
        });
      this.storeFailing = true;
    }
    const refused = keysToClose(this.known, this.clock.now());
    // What the store says wins over cached lookups at once (REST then refuses the key here too).
    if (refused.length) this.keys.invalidate();
    for (const { keyId, why } of refused) {
      const n = this.hub.closeKey(keyId, { code: 'unauthorized', message: `${why}; the stream is closed` });
      this.known.delete(keyId);
      if (n) this.logger.log({ msg: 'closed the streams of a key that no longer works', key_id: keyId, streams: n, why });
    }
  }
}
