import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { BoardModule } from '../board/board.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { DeepLinksController } from './deep-links.controller.js';
import { DeepLinksService } from './deep-links.service.js';

/** The deep-link resolver and batch route; the templates are config/deep-links.json (deep-link-templates.ts). */
@Module({
  imports: [BoardModule, DetectionModule],
  controllers: [DeepLinksController],
  providers: [DeepLinksService],
  exports: [DeepLinksService],
})
export class DeepLinksModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ name: 'deep_links_batch', label: 'Batch deep links', fromTier: 'hobby' }, { listed: false });
  }
}
