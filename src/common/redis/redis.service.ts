import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';

/**
 * Redis connections when REDIS_URL is set: one for commands (fails fast while disconnected, so callers can
 * fall back) and one for subscriptions. Both reconnect by themselves.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger('redis');
  readonly enabled: boolean;
  private commandClient?: Redis;
  private subscriberClient?: Redis;
  private wasReady = false;
  private readonly reconnectListeners = new Set<() => void>();

  /** Called after the command connection comes back from an outage. */
  onReconnect(fn: () => void): void {
    this.reconnectListeners.add(fn);
  }

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.enabled = Boolean(config.redisUrl);
  }

  private create(name: string, offlineQueue: boolean): Redis {
    const client = new Redis(this.config.redisUrl!, {
      connectionName: `odds-service:${name}`,
      enableOfflineQueue: offlineQueue,
      maxRetriesPerRequest: offlineQueue ? null : 1,
      connectTimeout: 2000,
      // Long enough for a reply to wait out a busy event loop; a dead connection fails at once (no offline queue).
      commandTimeout: offlineQueue ? undefined : 3000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
      lazyConnect: false,
    });
    client.on('error', (err: Error) => {
      if (this.wasReady) this.logger.warn({ msg: 'redis connection error', client: name, error: err.message });
    });
    client.on('ready', () => {
      if (name === 'cmd') {
        if (this.wasReady) {
          this.logger.log({ msg: 'redis reconnected' });
          for (const fn of this.reconnectListeners) fn();
        }
        this.wasReady = true;
      }
    });
    client.on('end', () => undefined);
    return client;
  }

  get client(): Redis {
    if (!this.enabled) throw new Error('Redis is not configured');
    this.commandClient ??= this.create('cmd', false);
    return this.commandClient;
  }

  /** A dedicated connection for SUBSCRIBE / blocking reads. */
  get subscriber(): Redis {
    if (!this.enabled) throw new Error('Redis is not configured');
    this.subscriberClient ??= this.create('sub', true);
    return this.subscriberClient;
  }

  /** A new connection owned by the caller (e.g. a blocking stream reader). */
  duplicate(name: string): Redis {
    return this.create(name, true);
  }

  get ready(): boolean {
    return this.commandClient?.status === 'ready';
  }

  async waitReady(timeoutMs: number): Promise<boolean> {
    if (!this.enabled) return false;
    const c = this.client;
    if (c.status === 'ready') return true;
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        c.off('ready', ok);
        resolve(false);
      }, timeoutMs);
      const ok = () => {
        clearTimeout(t);
        resolve(true);
      };
      c.once('ready', ok);
    });
  }

  async ping(): Promise<number> {
    const start = performance.now();
    await this.client.ping();
    return performance.now() - start;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const c of [this.commandClient, this.subscriberClient]) {
      if (!c) continue;
      try {
        await c.quit();
      } catch {
        c.disconnect();
      }
    }
  }
}
