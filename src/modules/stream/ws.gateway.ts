import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { extractKey } from '../../common/auth/api-key.guard.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { ApiError } from '../../common/http/api-error.js';
import { splitList } from '../../common/http/query.js';
import { Clock } from '../../common/time/clock.js';
import { ApiKeysService } from '../accounts/api-keys.service.js';
import type { OpportunityKind } from '../opportunities/detect/records.js';
import { StreamAccess, type FilterInput } from './stream-access.js';
import { SOCKET_HIGH_WATER, StreamClient, type Channel, type Frame, type Transport } from './stream-client.js';
import { StreamHub } from './stream-hub.js';

/** Close codes (CONTRACT.md 11): auth, no streaming, limit. */
const CLOSE = { unauthorized: 4001, tier_restricted: 4003, too_many_streams: 4029, invalid_request: 4000, backpressure: 1013, service_unavailable: 1001 } as const;
const WS_CHANNELS = ['ev', 'arbitrage', 'middles', 'low_hold', 'odds', 'gamestate'];

class WsTransport implements Transport {
  private drainTimer: NodeJS.Timeout | null = null;
  constructor(
    private readonly ws: WebSocket,
    private readonly clock: Clock,
  ) {}
  write(f: Frame): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    this.ws.send(`{"type":${JSON.stringify(f.event)},"seq":${JSON.stringify(f.id)},"timestamp":${JSON.stringify(this.clock.iso())},"data":${f.data}}`);
    return this.ws.bufferedAmount <= SOCKET_HIGH_WATER;
  }
  buffered(): number {
    return this.ws.bufferedAmount;
  }
  onDrain(fn: () => void): void {
    this.drainTimer = setInterval(() => {
      if (this.ws.bufferedAmount <= SOCKET_HIGH_WATER) fn();
    }, 50);
  }
  close(reason?: { code: string; message: string }): void {
    if (this.drainTimer) clearInterval(this.drainTimer);
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (reason) this.ws.send(JSON.stringify({ type: 'error', timestamp: this.clock.iso(), code: reason.code, message: reason.message }));
    this.ws.close(reason ? (CLOSE[reason.code as keyof typeof CLOSE] ?? 1011) : 1000, reason?.code);
  }
}

interface SubscribeMessage {
  type: 'subscribe';
  channels?: string[];
  filters?: { sports?: string[]; sportsbooks?: string[]; leagues?: string[]; markets?: string[]; eventIds?: string[]; min_ev?: number; min_profit?: number };
}

/**
 * The WebSocket stream at /api/v1/ws (CONTRACT.md 11; names as in the SSE stream, DECISIONS.md #28):
 * authenticates like the REST API, applies the same tier policy and is fed by the same hub. Frames are
 * `{type, seq, timestamp, data}`; clients send `subscribe` (replaces the filters; omitted fields are kept) and
 * `ping` (answered by `pong`).
 */
@Injectable()
export class WsGateway implements OnModuleInit {
  private readonly logger = new Logger('ws');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly hub: StreamHub,
    private readonly access: StreamAccess,
    private readonly keys: ApiKeysService,
    private readonly policy: AccessPolicy,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/api/v1/ws', { websocket: true }, (socket: WebSocket, req: FastifyRequest) => {
      this.handle(socket, req).catch((err: unknown) => {
        const e = err instanceof ApiError ? err : new ApiError('internal_error', 'Internal server error');
        if (!(err instanceof ApiError)) this.logger.error({ msg: 'websocket failed', err: err instanceof Error ? err.stack : String(err) });
        if (socket.readyState === socket.OPEN) {
          socket.send(JSON.stringify({ type: 'error', timestamp: this.clock.iso(), code: e.code, message: e.message }));
          socket.close(CLOSE[e.code as keyof typeof CLOSE] ?? 1011, e.code);
        }
      });
    });
  }

  private input(q: Record<string, unknown>, channels: string[] | undefined): { filter: FilterInput; kinds: OpportunityKind[] | undefined; channels: Channel[] } {
    const list = (v: unknown) => (v === undefined ? undefined : (splitList(v) as string[]).map((s) => s.toLowerCase()));
    const chans = channels ?? list(q.channels);
    for (const c of chans ?? []) if (!WS_CHANNELS.includes(c)) throw new ApiError('invalid_request', `Unknown channel "${c}" (allowed: ${WS_CHANNELS.join(', ')})`);
    const kinds = chans?.filter((c): c is OpportunityKind => ['ev', 'arbitrage', 'middles', 'low_hold'].includes(c));
    const mapped: Channel[] = chans ? [...new Set(chans.map((c) => (c === 'odds' ? 'odds' : c === 'gamestate' ? 'gamestate' : 'opportunities') as Channel))] : ['odds', 'opportunities'];
    const num = (v: unknown, name: string) => {
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isFinite(n)) throw new ApiError('invalid_request', `${name} must be a number`);
      return n;
    };
    return {
      channels: mapped,
      kinds: kinds?.length ? kinds : chans ? [] : undefined,
      filter: {
        sport: list(q.sport),
        league: list(q.league),
        sportsbook: list(q.sportsbook),
        market: list(q.market),
        events: list(q.event_id ?? q.event),
        min_ev: num(q.min_ev, 'min_ev'),
        min_profit: num(q.min_profit, 'min_profit'),
      },
    };
  }

  private async handle(socket: WebSocket, req: FastifyRequest): Promise<void> {
    const key = extractKey(req);
    if (!key) throw new ApiError('unauthorized', 'Missing API key: connect with ?api_key=');
    const account = await this.keys.authenticate(key);
    if (!account) throw new ApiError('unauthorized', 'Invalid or revoked API key');
    const q = (req.query ?? {}) as Record<string, unknown>;
    let { filter, kinds, channels } = this.input(q, undefined);
    const make = () => this.access.filter(account, { ...filter, channels }, channels, kinds);
    const client = new StreamClient(this.hub.newStreamId(), account, make(), new WsTransport(socket, this.clock));
    socket.on('close', () => client.close());
    const t = this.policy.tier(account.tier);
    const subscribed = () =>
      client.transport.write({
        id: `${this.hub.currentSeq()}-c`,
        event: 'subscribed',
        data: JSON.stringify({
          channels: [...client.filter.channels],
          kinds: [...client.filter.kinds],
          sports: filter.sport ?? null,
          sportsbooks: client.filter.books.isDefault ? null : client.filter.books.books,
          leagues: filter.league ?? null,
          markets: filter.market ?? null,
          eventIds: filter.events ?? null,
          min_ev: client.filter.minEv,
          min_profit: client.filter.minProfit,
        }),
      });
    socket.on('message', (raw: Buffer) => {
      let msg: { type?: unknown; channels?: string[]; filters?: SubscribeMessage['filters'] };
      try {
        msg = JSON.parse(raw.toString('utf8')) as typeof msg;
      } catch {
        client.send({ id: `${this.hub.currentSeq()}-c`, event: 'error', data: JSON.stringify({ code: 'invalid_message', message: 'Messages must be JSON' }) });
        return;
      }
      if (msg.type === 'ping') {
        client.transport.write({ id: `${this.hub.currentSeq()}-c`, event: 'pong', data: JSON.stringify({ timestamp: this.clock.iso() }) });
        return;
      }
      if (msg.type !== 'subscribe') {
        client.send({ id: `${this.hub.currentSeq()}-c`, event: 'error', data: JSON.stringify({ code: 'unknown_message_type', message: `Unknown message type ${JSON.stringify(msg.type)}` }) });
        return;
      }
      try {
        const fl = msg.filters ?? {};
        const next = this.input(
          { sport: fl.sports?.join(','), league: fl.leagues?.join(','), sportsbook: fl.sportsbooks?.join(','), market: fl.markets?.join(','), event_id: fl.eventIds?.join(','), min_ev: fl.min_ev, min_profit: fl.min_profit },
          msg.channels,
        );
        // Omitted fields keep their values.
        filter = Object.fromEntries(Object.entries({ ...filter, ...next.filter }).map(([k, v]) => [k, v ?? (filter as Record<string, unknown>)[k]])) as FilterInput;
        if (msg.channels) ({ channels, kinds } = next);
        Object.assign(client.filter, make());
        subscribed();
        void this.hub.snapshot(client);
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError('invalid_request', 'Invalid subscription');
        client.send({ id: `${this.hub.currentSeq()}-c`, event: 'error', data: JSON.stringify({ code: e.code, message: e.message }) });
      }
    });
    await this.hub.open(
      client,
      typeof q.last_event_id === 'string' ? q.last_event_id : undefined,
      { message: 'connected', features: { ev: this.policy.hasFeature(account, 'ev'), arbitrage: this.policy.hasFeature(account, 'arbitrage'), middles: this.policy.hasFeature(account, 'middles'), low_hold: this.policy.hasFeature(account, 'low_hold') }, books: { max: t.maxBooks ?? -1, allowed: client.filter.books.all ? null : client.filter.books.books } },
      subscribed,
    );
  }
}
