import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { badRequest, tierRestricted } from '../../common/http/api-error.js';
import { EventsService } from '../events/events.service.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import type { StreamThreshold } from '../detection/detector.js';
import type { Channel, StreamFilter } from './stream-client.js';

export interface FilterInput {
  channels?: string[];
  sport?: string[];
  league?: string[];
  sportsbook?: string[];
  add_sportsbook?: string[];
  market?: string[];
  events?: string[];
  live?: boolean;
  min_ev?: number;
  min_profit?: number;
}

const CHANNELS = ['odds', 'opportunities', 'gamestate', 'all'];

/**
 * Stream thresholds when the request sets none: the public product's stream defaults, stated in the
 * `connected` frame's filters. REST differs on min_ev (`/opportunities/ev` defaults to 0); min_profit is the
 * same 0.5 as `/opportunities/arbitrage`.
 */
export const STREAM_DEFAULTS = { min_ev: 2.0, min_profit: 0.5 } as const satisfies Record<StreamThreshold, number>;

/**
 * Turns a stream request into a filter under the caller's tier: streaming itself, the game-state channel
 * (enterprise), the opportunity types whose feature the caller has (tier and account switches), and the book
 * rules.
 * Shared by SSE and WebSocket.
 */
@Injectable()
export class StreamAccess {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly events: EventsService,
    private readonly engine: DetectionEngine,
  ) {}

  /**
   * `defaultChannels`: when the request names none. `exact`: the channels are taken as listed (WebSocket)
   * rather than several meaning all (SSE). `kinds`: the opportunity types asked for (WebSocket channels).
   */
  filter(account: Account, q: FilterInput, opts: { defaultChannels?: string[]; exact?: boolean; kinds?: string[] } = {}): StreamFilter {
    this.policy.assertFeature(account, 'streaming');
    const requested = q.channels?.length ? q.channels : (opts.defaultChannels ?? ['opportunities']);
    for (const ch of requested)
      if (!CHANNELS.includes(ch))
        throw badRequest(`Invalid parameter "channel": "${ch}" (allowed: ${CHANNELS.join(', ')})`, { parameter: 'channel' });
    const channels = new Set<Channel>();
    const all = requested.includes('all') || (!opts.exact && requested.length > 1);
    for (const ch of all ? ['odds', 'opportunities', 'gamestate'] : requested) channels.add(ch as Channel);
    if (channels.has('gamestate') && !this.policy.hasFeature(account, 'game_state')) {
      if (!all)
        throw tierRestricted(
          `The gamestate channel requires the ${this.policy.requiredTierFor('game_state')} tier; this key is on the ${account.tier} tier`,
          this.policy.requiredTierFor('game_state'),
          { tier: account.tier },
        );
      channels.delete('gamestate');
    }
    const kinds = new Set<string>();
    for (const d of this.engine.types())
      if (this.policy.hasFeature(account, d.feature.name) && (!opts.kinds || opts.kinds.includes(d.kind))) kinds.add(d.kind);
    const books = this.policy.resolveBooks(account, q.sportsbook, q.add_sportsbook);
    return {
      channels,
      kinds,
      books,
      sports: this.events.resolveSports(q.sport),
      leagues: this.events.resolveLeagues(q.league),
      markets: this.events.resolveMarkets(q.market),
      events: q.events?.length ? new Set(q.events) : undefined,
      ...(q.live !== undefined ? { live: q.live } : {}),
      thresholds: { min_ev: q.min_ev ?? STREAM_DEFAULTS.min_ev, min_profit: q.min_profit ?? STREAM_DEFAULTS.min_profit },
    };
  }
}
