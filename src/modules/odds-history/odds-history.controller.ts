import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { LineHistoryQuery, LineMovementQuery } from './dto/odds-history.query.dto.js';
import { HistoryMetaDto, HistorySeriesDto, MovementMetaDto, SelectionMovementDto } from './dto/odds-history.response.dto.js';
import { OddsHistoryService } from './odds-history.service.js';

const POLICY =
  "Tier data policy as on /odds: without `sportsbook` the tier's default books (free: DraftKings + FanDuel; hobby/pro: the 5/15 most popular open books; sharp/enterprise: all); naming a book above the tier, or more books than the tier's maximum, is 403 tier_restricted; free keys see nothing newer than 60 s ago (the window ends then; X-Data-Delay: 60). `event` is required (400 otherwise); an event neither on the board nor in the history is 404. `from`/`to`: RFC 3339 or Unix seconds (default: everything kept, LINE_HISTORY_RETENTION_DAYS: 14 days embedded, 90 on PostgreSQL).";

@ApiTags('Odds')
@Controller('odds')
export class OddsHistoryController {
  constructor(private readonly history: OddsHistoryService) {}

  @Get('history')
  @RequiresKey()
  @ApiPagedResponse(HistorySeriesDto, {
    description: "A page of series: each book's changes of one selection at one line",
    meta: HistoryMetaDto,
  })
  @ApiOperation({
    summary: 'Line history: every price change of an event, one series per book',
    description: `Every change of price, line, suspension or live state the board saw, kept as a change (not a snapshot). A series is one book's selection at one line (an odds row); its \`points\` are its changes in the window, oldest first (at most \`max_points\`: past it \`truncated\` and \`next_from\`). A withdrawn row ends with a \`removed\` point. Narrow with \`market\`, \`selection\` (home, away, draw, over, under, or the name), \`line\`, \`period\`, \`sportsbook\`. Pages count series (limit default 50, max 200; offset max 5000): only series with a change in the window are listed. ${POLICY}`,
  })
  list(@Query() q: LineHistoryQuery, @CurrentAccount() account: Account) {
    return this.history.history(account, q);
  }

  @Get('movement')
  @RequiresKey()
  @ApiPagedResponse(SelectionMovementDto, { description: 'A page of selections with their movement in the window', meta: MovementMetaDto })
  @ApiOperation({
    summary: 'Line movement per selection: open, current, high, low, moves, first mover and steam',
    description: `Per selection (market, period, side, line, player), across the books in scope: the best price's open (in force at the window start), current (at its end), high and low; each book's open, current, high, low and number of moves (a change of its quoted price; a suspension is not a move, a reopening at another price is); the first book to move; and the steam moves: a book's move followed by at least \`steam_min_followers\` (default 2) other books moving the same way within \`steam_window\` seconds (default 60), with each follower's lag. Pages count selections (limit default 50, max 200). ${POLICY}`,
  })
  movement(@Query() q: LineMovementQuery, @CurrentAccount() account: Account) {
    return this.history.movement(account, q);
  }
}
