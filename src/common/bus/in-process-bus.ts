import { Logger } from '@nestjs/common';
import { EventBus, LocalDispatcher, type Handler } from './event-bus.js';

/** The embedded default: events stay inside this process. */
export class InProcessBus extends EventBus {
  private readonly logger = new Logger('bus');
  private readonly local = new LocalDispatcher((topic, err) =>
    this.logger.error({ msg: 'bus handler failed', topic, error: err instanceof Error ? err.message : String(err) }),
  );
  readonly distributed = false;

  publish<T>(topic: string, payload: T, opts: { remoteOnly?: boolean } = {}): void {
    if (!opts.remoteOnly) this.local.dispatch(topic, payload);
  }

  publishLocal<T>(topic: string, payload: T): void {
    this.local.dispatch(topic, payload);
  }

  subscribe<T>(topic: string, handler: Handler<T>): () => void {
    return this.local.subscribe(topic, handler);
  }

  healthy(): null {
    return null;
  }
}
