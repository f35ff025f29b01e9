import { Global, Module } from '@nestjs/common';
import { KeptAnswers } from '../../common/http/conditional-get.js';
import { ANSWER_STAMPS } from '../../common/http/revalidation.js';
import { BoardModule } from '../board/board.module.js';
import { ListingStamps } from './listing-stamps.js';

/**
 * What every `@Revalidate` route's interceptor needs, in any module: the stamp of the data the event and reference
 * lists read, and the answers the server last sent per request (one bounded map for the process).
 */
@Global()
@Module({
  imports: [BoardModule],
  providers: [
    ListingStamps,
    { provide: ANSWER_STAMPS, useExisting: ListingStamps },
    { provide: KeptAnswers, useFactory: () => new KeptAnswers() },
  ],
  exports: [ANSWER_STAMPS, KeptAnswers],
})
export class ListingStampsModule {}
