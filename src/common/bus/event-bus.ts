import { randomUUID } from 'node:crypto';

/** `remote` is true when the event was published by another instance. */
export type Handler<T> = (payload: T, remote: boolean) => void;

/**
 * The internal event bus: ingestion, detection and streaming talk through it. One interface, two
 * implementations: in-process (embedded default) and Redis (several instances share events).
 * Handlers run synchronously in publish order for local publishes; a handler that throws is logged
 * by the implementation and does not stop the others.
 */
export abstract class EventBus {
  readonly instanceId = randomUUID();
  /** Delivers to this process's subscribers and to every other instance (`remoteOnly`: to the others only). */
  abstract publish<T>(topic: string, payload: T, opts?: { remoteOnly?: boolean }): void;
  /** Delivers to this process's subscribers only (state every instance derives itself, e.g. detections). */
  abstract publishLocal<T>(topic: string, payload: T): void;
  abstract subscribe<T>(topic: string, handler: Handler<T>): () => void;
  /** Whether events published by other processes arrive here (false for the in-process bus). */
  abstract readonly distributed: boolean;
  /** Health of the transport: null when in-process. */
  abstract healthy(): boolean | null;
  /**
   * Called when messages another instance published on `topic` were lost on the way (a gap in its numbering),
   * so the subscriber can catch up from the store. Never called for the in-process bus.
   */
  onGap(_topic: string, _fn: () => void): void {
    /* nothing is ever lost in-process */
  }
}

export class LocalDispatcher {
  private readonly handlers = new Map<string, Set<Handler<unknown>>>();
  constructor(private readonly onError: (topic: string, err: unknown) => void) {}

  subscribe<T>(topic: string, handler: Handler<T>): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler as Handler<unknown>);
    return () => set!.delete(handler as Handler<unknown>);
  }

  dispatch(topic: string, payload: unknown, remote = false): void {
    const set = this.handlers.get(topic);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(payload, remote);
      } catch (err) {
        this.onError(topic, err);
      }
    }
  }
}
