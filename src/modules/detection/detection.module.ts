import { Module } from '@nestjs/common';
import { DetectionEngine } from './detection.engine.js';
import { BoardModule } from '../board/board.module.js';

/**
 * The detection engine. The opportunity types are modules of their own (ev/, arbitrage/, middles/, low-hold/)
 * that import this one and register their Detector; their lists share opportunity-lists/; the stream reads
 * opportunities through the engine.
 */
@Module({ imports: [BoardModule], providers: [DetectionEngine], exports: [DetectionEngine] })
export class DetectionModule {}
