import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { DeepLinksModule } from '../deep-links/deep-links.module.js';
import { DeepLinksService } from '../deep-links/deep-links.service.js';
import { FuturesQueryService } from './futures-query.service.js';
import { FuturesController } from './futures.controller.js';
import { FuturesStoreModule } from '../stores/futures/futures-store.module.js';
import { FuturesStoreService } from '../stores/futures/futures-store.service.js';

/** Futures (outright) markets as read: the /futures routes over the futures store, deep links of their prices. */
@Module({
  imports: [FuturesStoreModule, DeepLinksModule],
  controllers: [FuturesController],
  providers: [FuturesQueryService],
})
export class FuturesModule implements OnModuleInit {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly futures: FuturesStoreService,
    private readonly links: DeepLinksService,
  ) {}

  onModuleInit(): void {
    this.policy.registerFeature({ name: 'futures', label: 'Futures odds', fromTier: 'pro' });
    this.links.addFinder((id) => {
      const p = this.futures.store.prices.get(id);
      return p ? [{ book: p.sportsbook, ids: { event_id: p.externalId } }] : null;
    });
  }
}
