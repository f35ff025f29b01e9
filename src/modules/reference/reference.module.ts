import { Module } from '@nestjs/common';
import { ReferenceController } from './reference.controller.js';
import { ReferenceService } from './reference.service.js';
import { RefBlocks } from './ref-blocks.js';
import { BoardModule } from '../board/board.module.js';

/** The catalog views (sports, leagues, sportsbooks, markets, teams) and the reference blocks every item carries. */
@Module({
  imports: [BoardModule],
  controllers: [ReferenceController],
  providers: [ReferenceService, RefBlocks],
  exports: [ReferenceService, RefBlocks],
})
export class ReferenceModule {}
