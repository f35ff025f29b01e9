import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequiresKey } from '../../common/auth/decorators.js';
import { BatchOddsBody, BestOddsQuery, ComparisonQuery, DeltaQuery, EventOddsQuery, ListOddsQuery } from './dto/odds.query.js';
import { OddsService } from './odds.service.js';

const TIER_NOTE =
  'Tier data policy: free keys see the board as it stood 60 s ago (X-Data-Delay: 60); without `sportsbook` the tier\'s default books apply (free: DraftKings + FanDuel; hobby/pro: the 5/15 most popular open books; sharp/enterprise: all); naming a book above the tier, or more books than the tier\'s maximum (2/5/15/all), is 403 tier_restricted.';

@ApiTags('Odds')
@Controller()
export class OddsController {
  constructor(private readonly odds: OddsService) {}

  @Get('odds')
  @RequiresKey()
  @ApiOperation({ summary: 'Current odds', description: `Every filter, sort (\`-\` for descending), \`fields\` projection, \`group_by=event\`, limit (default 50, max 500), offset (max 5000; past it 400 offset_too_large) and an opaque \`cursor\` for deeper paging. ${TIER_NOTE}` })
  @Header('Content-Type', 'application/json; charset=utf-8')
  list(@Query() q: ListOddsQuery, @Req() req: FastifyRequest) {
    return this.odds.cachedJson(req.account, 'list', q, () => this.odds.list(req.account, q));
  }

  @Get('odds/best')
  @RequiresKey()
  @ApiOperation({ summary: 'Best price per selection across the books in scope', description: `One Odds row per selection: the book with the highest decimal price (ties to the alphabetically first book), with \`books_compared\`. Suspended rows and rows not confirmed for 5 min (1 min live) are left out. ${TIER_NOTE}` })
  @Header('Content-Type', 'application/json; charset=utf-8')
  best(@Query() q: BestOddsQuery, @Req() req: FastifyRequest) {
    return this.odds.cachedJson(req.account, 'best', q, () => this.odds.best(req.account, q));
  }

  @Get('odds/comparison')
  @RequiresKey()
  @ApiOperation({ summary: 'One event\'s prices side by side', description: `\`event\` is required (400 otherwise). \`data\` maps each sportsbook id to its Odds rows for the event. ${TIER_NOTE}` })
  comparison(@Query() q: ComparisonQuery, @Req() req: FastifyRequest) {
    return this.odds.comparison(req.account, q);
  }

  @Post('odds/batch')
  @RequiresKey()
  @HttpCode(200)
  @ApiOperation({ summary: 'Odds for several events', description: `\`data\` maps each event id to its Odds rows; unknown ids are listed in \`meta.missing\`. Events per request: free 5, hobby 20, pro 50, sharp and enterprise 100; over it the whole request is 400 invalid_request naming the limit. ${TIER_NOTE}` })
  batch(@Body() body: BatchOddsBody, @Req() req: FastifyRequest) {
    return this.odds.batch(req.account, body);
  }

  @Get('odds/delta')
  @RequiresKey()
  @ApiOperation({ summary: 'What changed since a time', description: `Rows whose price, line, live or active state changed after \`since\` (required), plus \`removed\` [{id, sportsbook, removed_at}] (at most 1000; \`removed_truncated\` past it). Use \`meta.server_time\` as the next \`since\`. Removals are kept 10 minutes: an older \`since\` sets \`since_clamped\` (changed rows are still exact). ${TIER_NOTE}` })
  delta(@Query() q: DeltaQuery, @Req() req: FastifyRequest) {
    return this.odds.delta(req.account, q);
  }

  @Get('events/:eventId/odds')
  @RequiresKey()
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiOperation({ summary: 'One event\'s odds (same as /odds?event=ID; 404 when unknown)', description: TIER_NOTE })
  eventOdds(@Param('eventId') id: string, @Query() q: EventOddsQuery, @Req() req: FastifyRequest) {
    return this.odds.eventOdds(req.account, id, q);
  }
}
