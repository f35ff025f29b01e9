import { Inject, Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { RATE_LIMIT_STORE } from '../../common/common.module.js';
import type { WindowStore } from '../../common/rate-limit/rate-limit.storage.js';
import { Clock } from '../../common/time/clock.js';
import { maskKeyId } from './api-keys.service.js';
import { StreamCounts } from './stream-counts.js';
import { UsageService } from './usage.service.js';

/** `max_books` for "every book" in the account shapes (the public product's convention). */
export const ALL_BOOKS = 999;

/**
 * The account endpoints' read side: the calling key's tier, limits and features (GET /account) and its
 * account's usage (GET /account/usage).
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly usage: UsageService,
    private readonly streams: StreamCounts,
    private readonly clock: Clock,
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: WindowStore,
  ) {}

  /**
   * Both published shapes at once: the flat one of the current public document (`key_id`, `rate_limit`,
   * `streaming`, the feature tokens as `feature_list`) and the nested one the Python SDK validates (`key`,
   * `limits`, `features` as booleans, `add_ons`). `features` is the boolean object: the Python SDK refuses a list
   * there, and a client that reads the flat shape's array finds it in `feature_list`.
   */
  describe(account: Account, maxKeys: number) {
    const t = this.policy.tier(account.tier);
    const features = this.policy.featureFlags(account);
    const maxBooks = t.maxBooks ?? ALL_BOOKS;
    const streaming = features.streaming === true;
    const featureList = Object.entries(features)
      .filter(([, on]) => on)
      .map(([f]) => f);
    // The flat shape's "schedule" token: events and schedules come with odds.
    if (features.odds) featureList.splice(1, 0, 'schedule');
    return {
      key_id: account.keyId,
      account_id: account.accountId,
      tier: account.tier,
      rate_limit: { requests_per_minute: t.requestsPerMinute, max_books: maxBooks },
      features,
      feature_list: featureList,
      streaming: { enabled: streaming, max_connections: streaming ? t.maxStreams : 0 },
      key: { id: account.keyId, id_masked: maskKeyId(account.keyId), name: account.name, tier: account.tier, user_id: account.accountId },
      limits: {
        requests_per_minute: t.requestsPerMinute,
        odds_delay_seconds: t.dataDelaySeconds,
        data_delay_seconds: t.dataDelaySeconds,
        max_books: maxBooks,
        batch_size: t.batchSize,
        max_streams: t.maxStreams,
        max_keys: maxKeys,
      },
      addons: [...(account.addons ?? [])],
      add_ons: [...(account.addons ?? [])],
    };
  }

  /** Requests today / this week / this month (the whole account), the key's current minute and its streams. */
  async usageOf(account: Account) {
    const t = this.policy.tier(account.tier);
    const [counts, minute, streams] = await Promise.all([
      this.usage.counts(account.accountId),
      this.rateLimits.peek(`key:${account.keyId}`),
      this.streams.forKey(account.keyId),
    ]);
    const perMinute = this.policy.requestsPerMinute(account);
    const now = this.clock.now();
    const resetsAt = minute ? new Date(Math.ceil(now / 1000) * 1000 + minute.timeToExpire * 1000) : new Date(now + 60_000);
    return {
      requests: {
        today: counts.today,
        this_week: counts.this_week,
        this_month: counts.this_month,
        limit: { per_minute: perMinute, remaining: Math.max(0, perMinute - (minute?.totalHits ?? 0)), resets_at: resetsAt.toISOString() },
      },
      streams: { active: streams, max: t.features.streaming ? t.maxStreams : 0 },
      period: counts.periods.period,
    };
  }
}
