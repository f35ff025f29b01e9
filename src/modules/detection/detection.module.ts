import { Module } from '@nestjs/common';
import { DetectionEngine } from './detection.engine.js';
import { OpportunityLists } from './opportunity-lists.js';

/**
 * The detection engine and what the opportunity types share (their lists' scope and filters). The types
 * themselves are modules of their own (ev/, arbitrage/, middles/, low-hold/) that import this one and register
 * their Detector; the stream reads opportunities through the engine.
 */
@Module({ providers: [DetectionEngine, OpportunityLists], exports: [DetectionEngine, OpportunityLists] })
export class DetectionModule {}
