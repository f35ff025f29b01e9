import { Global, Module } from '@nestjs/common';
import { KnownTags } from '../../common/http/conditional-get.js';
import { ANSWER_STAMPS } from '../../common/http/revalidation.js';
import { BoardModule } from '../board/board.module.js';
import { ListingStamps } from './listing-stamps.js';

/**
 * What every `@Revalidate` route's interceptor needs, in any module: the stamp of the data the event and reference
 * lists read, and the ETags the server last sent per request (one map for the process).
 */
@Global()
@Module({
  imports: [BoardModule],
  providers: [
    ListingStamps,
    { provide: ANSWER_STAMPS, useExisting: ListingStamps },
    { provide: KnownTags, useFactory: () => new KnownTags() },
  ],
  exports: [ANSWER_STAMPS, KnownTags],
})
export class ListingStampsModule {}
