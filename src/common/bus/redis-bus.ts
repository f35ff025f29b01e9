import { Logger } from '@nestjs/common';
import type { RedisService } from '../redis/redis.service.js';
import { EventBus, LocalDispatcher, type Handler } from './event-bus.js';

/**
 * Redis publish/subscribe. A publish is delivered to this process's handlers at once and to every other
 * instance through Redis; an instance ignores its own messages when they come back.
 * Messages published while Redis is unreachable reach local handlers only (logged once per outage).
 */
export class RedisBus extends EventBus {
  private readonly logger = new Logger('bus');
  private readonly local = new LocalDispatcher((topic, err) =>
    this.logger.error({ msg: 'bus handler failed', topic, error: err instanceof Error ? err.message : String(err) }),
  );
  private readonly subscribed = new Set<string>();
  private publishFailing = false;
  readonly distributed = true;

  private readonly prefix: string;
  /** Messages published per topic by this instance, and the last number seen per (instance, topic). */
  private readonly sent = new Map<string, number>();
  private readonly received = new Map<string, number>();
  private readonly gapListeners = new Map<string, Set<() => void>>();

  constructor(
    private readonly redis: RedisService,
    keyPrefix: string,
  ) {
    super();
    this.prefix = `${keyPrefix}bus:`;
    const PREFIX = this.prefix;
    // Every topic again whenever the subscriber connection becomes ready (first connect and reconnects).
    redis.subscriber.on('ready', () => this.sendSubscribe([...this.subscribed]));
    redis.subscriber.on('message', (channel: string, raw: string) => {
      if (!channel.startsWith(PREFIX)) return;
      let msg: { o: string; n?: number; p: unknown };
      try {
        msg = JSON.parse(raw) as { o: string; n?: number; p: unknown };
      } catch {
        return;
      }
      if (msg.o === this.instanceId) return;
      const topic = channel.slice(PREFIX.length);
      this.checkSequence(topic, msg.o, msg.n);
      this.local.dispatch(topic, msg.p, true);
    });
  }

  publish<T>(topic: string, payload: T, opts: { remoteOnly?: boolean } = {}): void {
    if (!opts.remoteOnly) this.local.dispatch(topic, payload);
    const n = (this.sent.get(topic) ?? 0) + 1;
    this.sent.set(topic, n);
    const body = JSON.stringify({ o: this.instanceId, n, p: payload });
    this.redis.client.publish(this.prefix + topic, body).then(
      () => {
        if (this.publishFailing) this.logger.log({ msg: 'bus publishing to redis again' });
        this.publishFailing = false;
      },
      (err: Error) => {
        if (!this.publishFailing) this.logger.warn({ msg: 'bus publish to redis failed; delivering locally only', error: err.message });
        this.publishFailing = true;
      },
    );
  }

  private sendSubscribe(topics: string[]): void {
    if (!topics.length) return;
    this.redis.subscriber
      .subscribe(...topics.map((t) => this.prefix + t))
      .catch((err: Error) => this.logger.warn({ msg: 'redis subscribe failed', topics, error: err.message }));
  }

  override onGap(topic: string, fn: () => void): void {
    let set = this.gapListeners.get(topic);
    if (!set) this.gapListeners.set(topic, (set = new Set()));
    set.add(fn);
  }

  private checkSequence(topic: string, origin: string, n: number | undefined): void {
    if (n === undefined) return;
    const key = `${origin}|${topic}`;
    const last = this.received.get(key);
    this.received.set(key, n);
    if (last === undefined || n === last + 1) return;
    this.logger.warn({ msg: 'bus messages lost', topic, origin, missing: n - last - 1 });
    for (const fn of this.gapListeners.get(topic) ?? []) fn();
  }

  publishLocal<T>(topic: string, payload: T): void {
    this.local.dispatch(topic, payload);
  }

  subscribe<T>(topic: string, handler: Handler<T>): () => void {
    if (!this.subscribed.has(topic)) {
      this.subscribed.add(topic);
      // Only on a ready connection: a SUBSCRIBE sent while ioredis is still connecting puts the connection in
      // subscriber mode before its ready check, which then fails and drops the subscription.
      if (this.redis.subscriber.status === 'ready') this.sendSubscribe([topic]);
    }
    return this.local.subscribe(topic, handler);
  }

  healthy(): boolean {
    return this.redis.ready && !this.publishFailing;
  }
}
