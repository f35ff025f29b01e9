import { BoardModule } from '../board/board.module.js';
import { Module } from '@nestjs/common';
import { ClosingLinesModule } from '../closing-lines/closing-lines.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { ClvController } from './clv.controller.js';
import { ClvRepository } from './clv.repository.js';
import { ClvService } from './clv.service.js';

/** The CLV track record: +EV detections recorded, valued at the close, graded at settlement; GET /historical/clv. */
@Module({
  imports: [BoardModule, DetectionModule, ClosingLinesModule],
  controllers: [ClvController],
  providers: [ClvRepository, ClvService],
  exports: [ClvService],
})
export class ClvModule {}
