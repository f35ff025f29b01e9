import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Account } from '../../common/auth/account.js';
import { Authenticator } from '../../common/auth/authenticator.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { RATE_LIMIT_STORE } from '../../common/common.module.js';
import { ApiError } from '../../common/http/api-error.js';
import { Clock } from '../../common/time/clock.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { StreamAccess } from './stream-access.js';
import { StreamHub } from './stream-hub.js';
import { WsMessages } from './ws-messages.js';
import { wsClientProfile } from '../../common/client-profiles/ws.js';
import { WsSession, type SessionDeps } from './ws-session.js';

/** The REST throttler's window (app.module.ts: one budget per key per minute). */
const RATE_WINDOW_MS = 60_000;

/**
 * The WebSocket stream at /api/v1/ws: authenticates like the REST API, spends one request of the key's
 * per-minute budget per upgrade, applies the same tier policy and is fed by the same hub. Each connection is a
 * WsSession (message schemas and budgets) speaking one client profile (ws-profile.ts): the AsyncAPI document's
 * messages by default, or the SSE stream's payloads in `{type, seq, timestamp, data}` frames (`spec`). Clients
 * send `subscribe` and `ping` (answered by `pong`).
 */
@Injectable()
export class WsGateway implements OnModuleInit {
  private readonly logger = new Logger('ws');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly hub: StreamHub,
    private readonly access: StreamAccess,
    private readonly auth: Authenticator,
    private readonly policy: AccessPolicy,
    private readonly clock: Clock,
    @Inject(RATE_LIMIT_STORE) private readonly limits: ThrottlerStorage,
    private readonly engine: DetectionEngine,
  ) {}

  private protocol: Pick<SessionDeps, 'messages' | 'kindOfChannel' | 'channelOfKind'> | null = null;

  /** Message schemas and channel names of the registered opportunity types (read at the first connection, after start). */
  private messages(): Pick<SessionDeps, 'messages' | 'kindOfChannel' | 'channelOfKind'> {
    if (!this.protocol) {
      const types = this.engine.types();
      this.protocol = {
        messages: new WsMessages(types.map((d) => d.stream.channel)),
        kindOfChannel: new Map(types.map((d) => [d.stream.channel, d.kind])),
        channelOfKind: new Map(types.map((d) => [d.kind, d.stream.channel])),
      };
    }
    return this.protocol;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/api/v1/ws', { websocket: true }, (socket: WebSocket, req: FastifyRequest) => this.accept(socket, req));
  }

  private accept(socket: WebSocket, req: FastifyRequest): void {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const session = new WsSession(
      socket,
      { hub: this.hub, access: this.access, clock: this.clock, logger: this.logger, ...this.messages() },
      wsClientProfile(q, req.headers),
    );
    this.admit(req)
      .then(
        (account) => {
          const t = this.policy.tier(account.tier);
          const features = Object.fromEntries(
            this.engine.types().map((d) => [d.feature.name, this.policy.hasFeature(account, d.feature.name)]),
          );
          session.start(account, q, (f) => ({
            message: 'Connected to the odds stream',
            features,
            books: { max: t.maxBooks ?? -1, allowed: f.books.all ? null : f.books.books },
          }));
        },
        (err: unknown) => session.fail(err),
      )
      .catch((err: unknown) => session.crash(err));
  }

  /** The key (authenticate), then its budget: an upgrade counts as one request of the key's minute. */
  private async admit(req: FastifyRequest): Promise<Account> {
    const account = await this.authenticate(req);
    await this.chargeUpgrade(account);
    return account;
  }

  /**
   * The one place a WebSocket's key is checked, by the same Authenticator as every HTTP request (failed attempts
   * count against the client address): the account, 401 `unauthorized` (close 4001) or 429 (close 4029).
   */
  private authenticate(req: FastifyRequest): Promise<Account> {
    return this.auth.authenticate({ headers: req.headers, query: req.query, ip: req.ip });
  }

  /**
   * Spends one request of the key's per-minute budget on the counters the REST throttler uses (shared by every
   * instance through Redis): over budget, `rate_limited` and close 4029.
   */
  private async chargeUpgrade(account: Account): Promise<void> {
    const limit = this.policy.requestsPerMinute(account);
    const rec = await this.limits.increment(`key:${account.keyId}`, RATE_WINDOW_MS, limit, RATE_WINDOW_MS, 'default');
    if (rec.isBlocked) {
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry in ${rec.timeToBlockExpire} s`, {
        retry_after: rec.timeToBlockExpire,
      });
    }
  }
}
