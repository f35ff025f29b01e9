import { BoardModule } from '../board/board.module.js';
import { Module, type OnModuleInit } from '@nestjs/common';
import { AccessPolicy } from '../../common/auth/access-policy.js';
import { ClosingLinesController } from './closing-lines.controller.js';
import { ClosingLinesRepository } from './closing-lines.repository.js';
import { CLOSING_LINE_FEATURE, ClosingLinesService } from './closing-lines.service.js';

/** Closing lines: captured as events go live, stored, served by GET /odds/closing (feature `closing_line`, pro and up). */
@Module({
  imports: [BoardModule],
  controllers: [ClosingLinesController],
  providers: [ClosingLinesRepository, ClosingLinesService],
  exports: [ClosingLinesService],
})
export class ClosingLinesModule implements OnModuleInit {
  constructor(private readonly policy: AccessPolicy) {}

  onModuleInit(): void {
    this.policy.registerFeature({ ...CLOSING_LINE_FEATURE });
  }
}
