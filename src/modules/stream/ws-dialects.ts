import type { WebSocket } from 'ws';
import type { Clock } from '../../common/time/clock.js';
import { AsyncApiTransport } from './asyncapi-transport.js';
import type { FilterInput } from './stream-access.js';
import type { StreamClient, StreamFilter, Transport } from './stream-client.js';
import { WsTransport, wsErrorFrame } from './transports.js';
import type { WsClientProfile } from '../../common/client-profiles/ws.js';
import type { WsConnectOptions } from './ws-query.js';

/** A subscription as the `subscribed` message states it. */
export interface SubscribedView {
  /** The channels the client named (undefined: every channel its tier allows). */
  channels: string[] | undefined;
  /** The filters it asked for (lists as given). */
  asked: FilterInput;
  /** The stream filter in force. */
  filter: StreamFilter;
}

/**
 * What differs between the WebSocket's client profiles (ws-profile.ts): the transport that writes the hub's
 * frames, the session's own messages (pong, subscribed, error replies), what "no channels" means, and what
 * follows a resumed start.
 */
export interface WsDialect {
  readonly profile: WsClientProfile;
  readonly transport: Transport;
  /** The stream channels a subscription that names none stands for. */
  readonly everyChannel: readonly string[];
  /** Whether the URL's subscription starts at once when it names no channels (else the first `subscribe` starts it). */
  readonly streamsWithoutChannels: boolean;
  /** The URL was read and the stream registered: `resumeSeq` is where it resumes from (null: a snapshot). */
  configure(o: WsConnectOptions, resumeSeq: number | null, connectedAt: number): void;
  pong(): void;
  /** An error reply; the connection stays open. */
  error(code: string, message: string): void;
  /** Confirms a subscription; `replacing`: a later `subscribe`, not the first. */
  subscribed(v: SubscribedView, replacing: boolean): void;
  /** Snapshots completed so far (a resumed start that completed none was a replay). */
  completedSnapshots(): number;
  /** A resumed start replayed what was missed (no snapshot): says so. */
  replayed(client: StreamClient, seq: number): void;
}

export interface DialectDeps {
  clock: Clock;
  /** The current sequence number (the legacy `subscribed` frame's id). */
  currentSeq: () => number;
  /** The channel of each opportunity type (kind). */
  channelOfKind: ReadonlyMap<string, string>;
}

/** The `spec` profile: the SSE stream's names and payloads in `{type, seq, timestamp, data}` frames. */

/** The filters of a subscription as both dialects' `subscribed` messages state them. */
function subscription(v: SubscribedView) {
  const f = v.filter;
  return {
    sports: v.asked.sport ?? null,
    sportsbooks: f.books.isDefault ? null : f.books.books,
    leagues: v.asked.league ?? null,
    markets: v.asked.market ?? null,
    eventIds: v.asked.events ?? null,
    min_ev: f.thresholds.min_ev,
    min_profit: f.thresholds.min_profit,
    min_odds: f.minOdds ?? null,
    max_odds: f.maxOdds ?? null,
  };
}

export class SpecDialect implements WsDialect {
  readonly profile = 'spec';
  readonly transport: WsTransport;
  readonly everyChannel = ['all'];
  readonly streamsWithoutChannels = false;

  constructor(
    socket: WebSocket,
    private readonly deps: DialectDeps,
  ) {
    this.transport = new WsTransport(socket, () => deps.clock.iso());
  }

  configure(): void {}

  pong(): void {
    const now = this.deps.clock.iso();
    this.transport.writeRaw(JSON.stringify({ type: 'pong', timestamp: now, data: { timestamp: now } }));
  }

  error(code: string, message: string): void {
    this.transport.writeRaw(wsErrorFrame(this.deps.clock.iso(), code, message));
  }

  subscribed(v: SubscribedView): void {
    const f = v.filter;
    this.transport.writeRaw(
      JSON.stringify({
        type: 'subscribed',
        seq: `${this.deps.currentSeq()}-c`,
        timestamp: this.deps.clock.iso(),
        data: {
          channels: [...f.channels],
          kinds: [...f.kinds],
          ...subscription(v),
        },
      }),
    );
  }

  completedSnapshots(): number {
    return 0;
  }

  replayed(): void {}
}

/** The `asyncapi` profile: the AsyncAPI document's messages (AsyncApiTransport). */
export class AsyncApiDialect implements WsDialect {
  readonly profile = 'asyncapi';
  readonly transport: AsyncApiTransport;
  /** Every channel of the document: prices and the opportunity types (game states only when named). */
  readonly everyChannel = ['odds', 'opportunities'];
  readonly streamsWithoutChannels = true;

  constructor(socket: WebSocket, deps: DialectDeps) {
    this.transport = new AsyncApiTransport(socket, { timestamp: () => deps.clock.iso(), channelOfKind: deps.channelOfKind });
  }

  configure(o: WsConnectOptions, resumeSeq: number | null, connectedAt: number): void {
    this.transport.state = o.state;
    // Replayed: what came before the connection. Not replayable (too old): a full snapshot, prices included.
    if (resumeSeq !== null) this.transport.replayUpTo = connectedAt;
    this.transport.skipOdds = o.resume && o.fromSeq === undefined;
  }

  pong(): void {
    this.transport.message('pong');
  }

  error(code: string, message: string): void {
    this.transport.error(code, message);
  }

  subscribed(v: SubscribedView, replacing: boolean): void {
    // A new subscription gets a whole snapshot, prices included.
    if (replacing) this.transport.skipOdds = false;
    const f = v.filter;
    this.transport.message('subscribed', {
      channels: v.channels ?? null,
      ...subscription(v),
      state: this.transport.state ?? null,
      live: f.live ?? null,
    });
  }

  completedSnapshots(): number {
    return this.transport.completed;
  }

  replayed(client: StreamClient, seq: number): void {
    // Through the stream's queue: after the replayed frames it may still hold.
    client.send({ id: `${seq}-sc`, event: 'snapshot:complete', data: '{"books":[],"resumed":true}' });
  }
}
