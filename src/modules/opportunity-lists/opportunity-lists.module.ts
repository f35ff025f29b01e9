import { Module } from '@nestjs/common';
import { DetectionModule } from '../detection/detection.module.js';
import { EventsModule } from '../events/events.module.js';
import { OpportunityLists } from './opportunity-lists.js';
import { BoardModule } from '../board/board.module.js';

/**
 * What the opportunity types' lists and items share (the read side over the detection engine): the caller's
 * scope and filters, its view of a type's live opportunities, the common query and item fields, the event block,
 * staleness and the guards' warnings.
 */
@Module({ imports: [BoardModule, DetectionModule, EventsModule], providers: [OpportunityLists], exports: [OpportunityLists] })
export class OpportunityListsModule {}
