import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { ClvModule } from '../clv/clv.module.js';
import { SettlementsController } from './settlements.controller.js';
import { SettlementsRepository } from './settlements.repository.js';
import { SettlementsService } from './settlements.service.js';

/** Feature `settlements`: pro and up, like the +EV signals it grades. */
export const SETTLEMENTS_FEATURE = { name: 'settlements', label: 'Settlements', fromTier: 'pro' } as const;

/** GET /settlements: the +EV track record's signals, graded or void. */
@Module({
  imports: [ClvModule],
  controllers: [SettlementsController],
  providers: [SettlementsRepository, SettlementsService],
})
export class SettlementsModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...SETTLEMENTS_FEATURE }, { listed: false });
  }
}
