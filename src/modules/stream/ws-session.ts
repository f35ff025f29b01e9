import type { Logger } from '@nestjs/common';
import type { RawData, WebSocket } from 'ws';
import type { Account } from '../../common/auth/account.js';
import { ApiError } from '../../common/http/api-error.js';
import type { Clock } from '../../common/time/clock.js';
import type { FilterInput, StreamAccess } from './stream-access.js';
import type { CloseReason, StreamClient, StreamFilter, Transport } from './stream-client.js';
import type { ResumePoint, StreamHub } from './stream-hub.js';
import { AsyncApiDialect, SpecDialect, type WsDialect } from './ws-dialects.js';
import { WindowBudget, type SubscribeMessage, type WsChannel, type WsMessages } from './ws-messages.js';
import type { ProfileChoice } from '../../common/client-profiles/ws.js';
import { parseWsQuery } from './ws-query.js';

/** Subscribe messages per connection: 10 per 10 s are served; past 20 in one window the client is closed. */
export const SUBSCRIBE_BUDGET = { limit: 10, windowMs: 10_000, closeAt: 20 } as const;
/** Messages of any kind per connection: 60 per 10 s are served; past 120 in one window the client is closed. */
export const MESSAGE_BUDGET = { limit: 60, windowMs: 10_000, closeAt: 120 } as const;
/** Messages kept while the connection is being authenticated; more and the client is closed. */
export const MAX_EARLY_MESSAGES = 16;

export interface SessionDeps {
  hub: StreamHub;
  access: StreamAccess;
  clock: Clock;
  logger: Logger;
  /** The message schemas (with the channels of the registered opportunity types). */
  messages: WsMessages;
  /** The opportunity type (kind) of each opportunity channel, and the reverse. */
  kindOfChannel: ReadonlyMap<string, string>;
  channelOfKind: ReadonlyMap<string, string>;
}

/** What the client subscribed to: the WebSocket channels (undefined: all its tier has) and the filters. */
interface Subscription {
  channels: WsChannel[] | undefined;
  filter: FilterInput;
}

/**
 * One WebSocket connection. Nothing the client sends can throw out of it: every message is checked against
 * its schema before use (answered with an `error` frame when wrong, the socket stays open), messages and
 * subscriptions have a budget per time window (past it: `error` frames, then the connection is closed with
 * 4029), and an unexpected failure closes this socket alone (1011) and is logged.
 *
 * The connection speaks one client profile (ws-profile.ts, ws-dialects.ts). The AsyncAPI profile streams what
 * the URL asks for at once (no `channels`: every channel the tier allows); the `spec` profile sends nothing but
 * `connected` until the client subscribes, unless the URL names channels. Every URL parameter is honoured or
 * refused (ws-query.ts). A subscription replaces the filters it names (omitted ones are kept) and supersedes a
 * snapshot still being sent: one snapshot per connection at a time.
 */
export class WsSession {
  readonly transport: Transport;
  private readonly dialect: WsDialect;
  /** Bounds on the American price of the odds rows sent (from the URL; a subscription keeps them). */
  private bounds: { minOdds?: number; maxOdds?: number } = {};
  private client: StreamClient | null = null;
  private ended = false;
  private readonly early: Array<{ data: RawData; isBinary: boolean }> = [];
  private subscription: Subscription = { channels: undefined, filter: {} };
  private subscribed = false;
  private resume: ResumePoint | null = null;
  private readonly messages = new WindowBudget(MESSAGE_BUDGET.limit, MESSAGE_BUDGET.windowMs, MESSAGE_BUDGET.closeAt);
  private readonly subscribes = new WindowBudget(SUBSCRIBE_BUDGET.limit, SUBSCRIBE_BUDGET.windowMs, SUBSCRIBE_BUDGET.closeAt);

  constructor(
    socket: WebSocket,
    private readonly deps: SessionDeps,
    private readonly profile: ProfileChoice,
  ) {
    const dialectDeps = { clock: deps.clock, currentSeq: () => deps.hub.currentSeq(), channelOfKind: deps.channelOfKind };
    this.dialect = profile.profile === 'asyncapi' ? new AsyncApiDialect(socket, dialectDeps) : new SpecDialect(socket, dialectDeps);
    this.transport = this.dialect.transport;
    // Listening from the first moment: a client may subscribe before `connected` (kept until authenticated).
    socket.on('message', (data: RawData, isBinary: boolean) => this.safely(() => this.receive(data, isBinary)));
    this.transport.onGone(() => {
      this.ended = true;
      this.early.length = 0;
    });
  }

  /**
   * The key was accepted: reads the URL (every parameter honoured or refused), registers the stream, sends
   * `connected`, starts what the URL asks for, and serves what the client sent so far.
   */
  start(account: Account, q: Record<string, unknown>, extra: (f: StreamFilter) => Record<string, unknown>): void {
    if (this.ended) return;
    this.safely(() => {
      if (!this.profile.ok) throw new ApiError('invalid_request', this.profile.message);
      const parsed = parseWsQuery(q, this.deps.messages, this.dialect.profile);
      if (!parsed.ok) throw new ApiError('invalid_request', parsed.message);
      const o = parsed.value;
      const asked = o.subscribe;
      this.bounds = { minOdds: o.minOdds, maxOdds: o.maxOdds };
      this.subscription = this.next(asked);
      const client = this.deps.hub.client(account, this.build(account, this.subscription), this.transport);
      this.client = client;
      // A global_seq to resume from is a frame id of the sequence, after all of its frames.
      const lastEventId = o.fromSeq !== undefined ? `${o.fromSeq}-c` : o.lastEventId;
      // Where live frames start: sequence numbers are wall-time microseconds on every instance (Sequencer), so what
      // is published from now on is above this even on an instance that has seen nothing yet (it resumes from the log).
      const connectedAt = Math.max(this.deps.hub.currentSeq(), Date.now() * 1000);
      this.resume = this.deps.hub.register(client, lastEventId, { ...extra(client.filter), channels: asked.channels ?? null });
      this.dialect.configure(o, this.resume?.seq ?? null, connectedAt);
      if (asked.channels || this.dialect.streamsWithoutChannels) this.apply(this.subscription);
      for (const m of this.early.splice(0)) if (!this.ended) this.handle(m.data, m.isBinary);
    });
  }

  /** The connection was refused (bad key, over its budget, no streaming): an error frame and the close code. */
  fail(err: unknown): void {
    if (err instanceof ApiError) this.close({ code: err.code, message: err.message });
    else this.crash(err);
  }

  private close(reason: CloseReason): void {
    if (this.client) this.client.close(reason);
    else this.transport.close(reason);
    this.ended = true;
  }

  /** Runs a handler; whatever it throws closes this socket only (1011), logged with its stack. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (err instanceof ApiError) this.close({ code: err.code, message: err.message });
      else this.crash(err);
    }
  }

  crash(err: unknown): void {
    this.deps.logger.error({
      msg: 'websocket handler failed; closing that socket',
      stream: this.client?.id ?? null,
      err: err instanceof Error ? err.stack : String(err),
    });
    this.close({ code: 'internal_error', message: 'Internal server error' });
  }

  private reply(code: string, message: string): void {
    this.dialect.error(code, message);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.ended) return;
    const budget = this.messages.take(this.deps.clock.now());
    if (budget === 'abusive') {
      return this.close({
        code: 'rate_limited',
        message: `Too many messages: at most ${MESSAGE_BUDGET.limit} per ${MESSAGE_BUDGET.windowMs / 1000} s; closing the connection`,
      });
    }
    if (!this.client) {
      if (this.early.length >= MAX_EARLY_MESSAGES)
        return this.close({
          code: 'rate_limited',
          message: `Too many messages before the connection was ready (at most ${MAX_EARLY_MESSAGES})`,
        });
      this.early.push({ data, isBinary });
      return;
    }
    if (budget === 'over')
      return this.reply(
        'rate_limited',
        `Too many messages: at most ${MESSAGE_BUDGET.limit} per ${MESSAGE_BUDGET.windowMs / 1000} s; this one was ignored`,
      );
    this.handle(data, isBinary);
  }

  private handle(data: RawData, isBinary: boolean): void {
    const parsed = this.deps.messages.parseClientMessage(data, isBinary);
    if (!parsed.ok) return this.reply(parsed.code, parsed.message);
    const msg = parsed.message;
    if (msg.type === 'ping') return this.dialect.pong();
    const budget = this.subscribes.take(this.deps.clock.now());
    if (budget === 'abusive') {
      return this.close({
        code: 'rate_limited',
        message: `Too many subscribe messages: at most ${SUBSCRIBE_BUDGET.limit} per ${SUBSCRIBE_BUDGET.windowMs / 1000} s; closing the connection`,
      });
    }
    if (budget === 'over')
      return this.reply(
        'rate_limited',
        `Too many subscribe messages: at most ${SUBSCRIBE_BUDGET.limit} per ${SUBSCRIBE_BUDGET.windowMs / 1000} s; this one was ignored`,
      );
    const next = this.next(msg);
    try {
      this.apply(next);
    } catch (err) {
      // A subscription the tier or the limits refuse: the client is told, the previous one stays.
      if (!(err instanceof ApiError)) throw err;
      this.reply(err.code, `${err.message}${this.subscribed ? ' (the previous subscription stays)' : ''}`);
    }
  }

  /** The subscription a message asks for: the channels it names (else the current ones) and its filters over the current ones. */
  private next(msg: SubscribeMessage): Subscription {
    const fl = msg.filters ?? {};
    const lower = (v: string[] | undefined) => v?.map((x) => x.toLowerCase());
    const asked: FilterInput = {
      sport: lower(fl.sports),
      league: lower(fl.leagues),
      sportsbook: lower(fl.sportsbooks),
      market: lower(fl.markets),
      events: fl.eventIds,
      live: fl.live,
      min_ev: fl.min_ev,
      min_profit: fl.min_profit,
    };
    const filter: FilterInput = { ...this.subscription.filter };
    for (const [k, v] of Object.entries(asked) as Array<[keyof FilterInput, FilterInput[keyof FilterInput]]>)
      if (v !== undefined) (filter as Record<string, unknown>)[k] = v;
    return { channels: msg.channels ?? this.subscription.channels, filter };
  }

  private build(account: Account, s: Subscription): StreamFilter {
    const f = s.channels
      ? // An opportunity type's channel means the opportunities channel (narrowed to its kinds); the others are odds and gamestate.
        this.deps.access.filter(
          account,
          { ...s.filter, channels: [...new Set(s.channels.map((c) => (this.deps.kindOfChannel.has(c) ? 'opportunities' : c)))] },
          { exact: true, kinds: s.channels.flatMap((c) => this.deps.kindOfChannel.get(c) ?? []) },
        )
      : this.deps.access.filter(account, { ...s.filter, channels: [...this.dialect.everyChannel] }, { exact: true });
    // Both always set: replacing a filter (StreamClient.refilter) must not keep a bound the new one lacks.
    return { ...f, minOdds: this.bounds.minOdds, maxOdds: this.bounds.maxOdds };
  }

  /** Applies a subscription (throws ApiError when refused, changing nothing), says `subscribed` and (re)starts the snapshot. */
  private apply(next: Subscription): void {
    const client = this.client!;
    const filter = this.build(client.account, next);
    this.deps.hub.assertSnapshotSize(filter);
    this.subscription = next;
    client.refilter(filter);
    const first = !this.subscribed;
    this.dialect.subscribed({ channels: next.channels, asked: next.filter, filter: client.filter }, !first);
    this.subscribed = true;
    const run = first ? this.startFirst(client) : this.deps.hub.snapshot(client);
    run.catch((err: unknown) => this.crash(err));
  }

  /** The first start: a replay from the resume point (said so when it completed no snapshot), or a snapshot. */
  private async startFirst(client: StreamClient): Promise<void> {
    const completed = this.dialect.completedSnapshots();
    await this.deps.hub.start(client, this.resume);
    if (this.resume && !client.closed && this.dialect.completedSnapshots() === completed)
      this.dialect.replayed(client, this.deps.hub.currentSeq());
  }
}
