import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { ClientShape } from '../../common/client-profiles/rest-shapes.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ApiMapResponse, ApiPagedResponse, CursorPaginationDto } from '../../common/http/api-responses.js';
import {
  BatchMetaDto,
  BestOddsItemDto,
  BestOddsMetaDto,
  ComparisonMetaDto,
  DeltaMetaDto,
  OddsEventGroupDto,
  OddsItemDto,
  OddsListMetaDto,
  RemovedRowDto,
} from './dto/odds.response.dto.js';
import { BatchOddsBody, BestOddsQuery, ComparisonQuery, DeltaQuery, EventOddsQuery, ListOddsQuery } from './dto/odds.query.js';
import { OddsService } from './odds.service.js';

/** The pages of /odds and /events/{id}/odds: rows, or events with their rows (group_by=event). */
const ODDS_PAGE = () =>
  ApiPagedResponse([OddsItemDto, OddsEventGroupDto], {
    description:
      'A page of Odds rows (group_by=event: of events, each with its rows). With `fields`, each row holds only the fields named.',
    meta: OddsListMetaDto,
    pagination: CursorPaginationDto,
    extra: { overflow: { type: 'boolean', description: 'Present (true) when more than 10,000 rows match: narrow the filters' } },
  });

const TIER_NOTE =
  "Tier data policy: free keys see the board as it stood 60 s ago (X-Data-Delay: 60); without `sportsbook` the tier's default books apply (free: DraftKings + FanDuel; hobby/pro: the 5/15 most popular open books; sharp/enterprise: all); naming a book above the tier, or more books than the tier's maximum (2/5/15/all), is 403 tier_restricted.";

@ApiTags('Odds')
@Controller()
export class OddsController {
  constructor(private readonly odds: OddsService) {}

  @Get('odds')
  @RequiresKey()
  @ODDS_PAGE()
  @ApiOperation({
    summary: 'Current odds',
    description: `Every filter, sort (\`-\` for descending), \`fields\` projection, \`group_by=event\`, limit (default 50, max 500), offset (max 5000; past it 400 offset_too_large) and an opaque \`cursor\` for deeper paging. ${TIER_NOTE}`,
  })
  @Header('Content-Type', 'application/json; charset=utf-8')
  list(@Query() q: ListOddsQuery, @CurrentAccount() account: Account) {
    return this.odds.listPage(account, q);
  }

  @Get('odds/best')
  @RequiresKey()
  @ApiPagedResponse(BestOddsItemDto, { description: 'The best price per selection', meta: BestOddsMetaDto })
  @ApiOperation({
    summary: 'Best price per selection across the books in scope',
    description: `One Odds row per selection: the book with the highest decimal price (ties to the alphabetically first book), with \`books_compared\`. Suspended rows and rows not confirmed for 5 min (1 min live) are left out. ${TIER_NOTE}`,
  })
  @Header('Content-Type', 'application/json; charset=utf-8')
  best(@Query() q: BestOddsQuery, @CurrentAccount() account: Account) {
    return this.odds.bestPage(account, q);
  }

  @Get('odds/comparison')
  @RequiresKey()
  @ApiMapResponse(OddsItemDto, { key: 'sportsbook id', description: "Each book's Odds rows for the event", meta: ComparisonMetaDto })
  @ApiOperation({
    summary: "One event's prices side by side",
    description: `\`event\` is required (400 otherwise). \`data\` maps each sportsbook id to its Odds rows for the event (the Python client's profile gets the rows as one list). ${TIER_NOTE}`,
  })
  @ClientShape('oddsByKey')
  comparison(@Query() q: ComparisonQuery, @CurrentAccount() account: Account) {
    return this.odds.comparison(account, q);
  }

  @Post('odds/batch')
  @RequiresKey()
  @ApiMapResponse(OddsItemDto, { key: 'event id', description: "Each event's Odds rows", meta: BatchMetaDto })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Odds for several events',
    description: `\`data\` maps each event id to its Odds rows; unknown ids are listed in \`meta.missing\` (the Python client's profile gets the rows as one list). Events per request: free 5, hobby 20, pro 50, sharp and enterprise 100; over it the whole request is 400 invalid_request naming the limit. ${TIER_NOTE}`,
  })
  @ClientShape('oddsByKey')
  batch(@Body() body: BatchOddsBody, @CurrentAccount() account: Account) {
    return this.odds.batch(account, body);
  }

  @Get('odds/delta')
  @RequiresKey()
  @ApiPagedResponse(OddsItemDto, {
    description: 'Changed rows (projected by `fields` when given), and the rows removed',
    meta: DeltaMetaDto,
    extra: {
      removed: {
        type: 'array',
        items: { $ref: getSchemaPath(RemovedRowDto) },
        description: 'Rows withdrawn after `since` (at most 1000); absent when none',
      },
      removed_truncated: { type: 'boolean', description: 'Present (true) when more than 1000 rows were removed' },
      since_clamped: { type: 'boolean', description: 'Present (true) when `since` is older than the 10 minutes removals are kept' },
      server_time: { type: 'string', format: 'date-time', description: 'Pass as the next `since`' },
    },
  })
  @ApiExtraModels(RemovedRowDto)
  @ApiOperation({
    summary: 'What changed since a time',
    description: `Rows whose price, line, live or active state changed after \`since\` (required; a row only confirmed unchanged, its \`timestamp\` moving, is not a change), in the order of change unless \`sort\` is given, plus \`removed\` [{id, sportsbook, removed_at}] (at most 1000; \`removed_truncated\` past it). Use \`meta.server_time\` as the next \`since\`. Removals are kept 10 minutes: an older \`since\` sets \`since_clamped\` (changed rows are still exact). ${TIER_NOTE}`,
  })
  delta(@Query() q: DeltaQuery, @CurrentAccount() account: Account) {
    return this.odds.delta(account, q);
  }

  @Get('events/:eventId/odds')
  @RequiresKey()
  @ODDS_PAGE()
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiOperation({ summary: "One event's odds (same as /odds?event=ID; 404 when unknown)", description: TIER_NOTE })
  eventOdds(@Param('eventId') id: string, @Query() q: EventOddsQuery, @CurrentAccount() account: Account) {
    return this.odds.eventOdds(account, id, q);
  }
}
