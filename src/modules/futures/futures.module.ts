import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { IngestionModule } from '../ingestion/ingestion.module.js';
import { DeepLinksModule } from '../deep-links/deep-links.module.js';
import { DeepLinksService } from '../deep-links/deep-links.service.js';
import { FuturesQueryService } from './futures-query.service.js';
import { FuturesController } from './futures.controller.js';
import { FuturesRepository } from './futures.repository.js';
import { FuturesService } from './futures.service.js';

/** Futures (outright) markets: intake from every source, storage, the /futures routes, deep links of their prices. */
@Module({
  imports: [IngestionModule, DeepLinksModule],
  controllers: [FuturesController],
  providers: [FuturesRepository, FuturesService, FuturesQueryService],
  exports: [FuturesService],
})
export class FuturesModule implements OnModuleInit {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly futures: FuturesService,
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
