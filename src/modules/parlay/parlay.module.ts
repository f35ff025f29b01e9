import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { BoardModule } from '../board/board.module.js';
import { ParlayController } from './parlay.controller.js';
import { ParlayService } from './parlay.service.js';

/** Feature `parlay`: pro and up, like the devigged fair prices (+EV) it is built from. */
export const PARLAY_FEATURE = { name: 'parlay', label: 'Parlay pricing', fromTier: 'pro' } as const;

/** POST /parlay/price: the modelled fair price of a slip. */
@Module({
  imports: [BoardModule],
  controllers: [ParlayController],
  providers: [ParlayService],
})
export class ParlayModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...PARLAY_FEATURE }, { listed: false });
  }
}
