import { Injectable } from '@nestjs/common';
import type { Account } from '../../common/auth/account.js';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { maskKeyId } from './api-keys.service.js';

@Injectable()
export class AccountService {
  constructor(private readonly policy: AccessPolicy) {}

  describe(account: Account) {
    const t = this.policy.tier(account.tier);
    const masked = maskKeyId(account.keyId);
    return {
      key: { id: masked, name: account.name, tier: account.tier, user_id: masked },
      tier: account.tier,
      limits: {
        requests_per_minute: t.requestsPerMinute,
        odds_delay_seconds: t.dataDelaySeconds,
        data_delay_seconds: t.dataDelaySeconds,
        max_books: t.maxBooks ?? 999,
        batch_size: t.batchSize,
        max_streams: t.maxStreams,
      },
      features: this.policy.featureFlags(account),
      addons: [] as string[],
    };
  }
}
