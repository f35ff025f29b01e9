import { All, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { ClientShape } from '../../common/client-profiles/rest-shapes.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ApiDataResponse, ApiPagedResponse } from '../../common/http/api-responses.js';
import { ApiError } from '../../common/http/api-error.js';
import { envelope, page } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Revalidate } from '../../common/http/revalidation.js';
import { BoardService } from '../board/board.service.js';
import { EventDto, EventMarketsMetaDto, EventsMetaDto } from './dto/event.response.dto.js';
import { ListEventsQuery } from './dto/events.query.js';
import { EventsService } from './events.service.js';

@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly boards: BoardService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @RequiresKey()
  @Revalidate('listing')
  @ApiPagedResponse(EventDto, { description: 'Events by start time', meta: EventsMetaDto })
  @ApiOperation({
    summary: 'Events (games) derived from the current odds',
    description:
      'Status is `upcoming`, `live` or `ended` (ended events stay for the grace period, then leave). Sorted by start time. Event ids are `{league}_{teamA}_{teamB}_{YYYY-MM-DD}_b{N}` with the team keys sorted and a 6-hour start bucket (US Eastern for US leagues, UTC otherwise); `_g{N}` marks a second game in the same bucket.',
  })
  list(@Query() q: ListEventsQuery, @CurrentAccount() account: Account) {
    const board = this.boards.viewFor(account);
    const all = this.events.filter(board, q);
    const items = all.slice(q.offset, q.offset + q.limit).map((e) => this.events.view(board, e));
    return page(items, { limit: q.limit, offset: q.offset, total: all.length }, { updated_at: this.clock.iso() });
  }

  @All(['search', 'list', 'all', 'find'])
  @RequiresKey()
  @ApiExcludeEndpoint()
  moved(): never {
    throw new ApiError('unknown_endpoint', 'This endpoint does not exist; list and filter events with GET /api/v1/events', {
      correct_endpoint: '/api/v1/events',
    });
  }

  @Get(':eventId')
  @RequiresKey()
  @Revalidate('listing')
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiDataResponse(EventDto, { description: 'The event' })
  @ApiOperation({ summary: 'One event (404 when unknown)' })
  get(@Param('eventId') id: string, @CurrentAccount() account: Account) {
    const board = this.boards.viewFor(account);
    return envelope(this.events.view(board, this.events.get(board, id)), { updated_at: this.clock.iso() });
  }

  @Get(':eventId/markets')
  @RequiresKey()
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiDataResponse(
    { type: 'array', items: { type: 'string' }, description: 'Market type ids' },
    { description: 'The market types priced for the event', meta: EventMarketsMetaDto },
  )
  @ApiOperation({
    summary: 'The market types priced for an event (string[])',
    description:
      "`data` lists the market ids. The Python client's profile gets one object per market instead: `{market_type, market_label, selection_count, book_count, books}`.",
  })
  @ClientShape('eventMarkets')
  markets(@Param('eventId') id: string, @CurrentAccount() account: Account) {
    const board = this.boards.viewFor(account);
    const e = this.events.get(board, id);
    return envelope(this.events.marketSummaries(board, e.id), { meta: { event_id: e.id }, updated_at: this.clock.iso() });
  }
}
