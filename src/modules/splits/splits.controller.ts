import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ListSplitsQuery } from './dto/list-splits.query.dto.js';
import { SplitsListResponseDto } from './dto/splits-game.response.dto.js';
import { SplitsHistoryQuery } from './dto/splits-history.query.dto.js';
import { SplitsHistoryResponseDto } from './dto/splits-history.response.dto.js';
import { SplitsService } from './splits.service.js';

const TIER_NOTE =
  'Available on every tier. Free keys see splits as they stood 60 s ago (X-Data-Delay: 60). The tier book rules of /odds do not apply: splits come from two books only, `draftkings` (recreational) and `circa` (sharp-friendly). Shares are fractions 0-1.';

@ApiTags('Splits')
@Controller('splits')
export class SplitsController {
  constructor(private readonly splits: SplitsService) {}

  @Get()
  @RequiresKey()
  @ApiOperation({
    summary: 'Current public betting splits (handle % and bet %), one entry per (event, book)',
    description: `Spread, total and moneyline splits as last published by each book; a market the book does not publish is null. In \`spread\`, \`away_line\`/\`home_line\` are the spread lines (the names /splits/history uses; \`away_odds\`/\`home_odds\` repeat them, deprecated, for clients of the public product); in \`moneyline\`, \`away_odds\`/\`home_odds\` are American odds. Filters: sport, league (ids or aliases), sportsbook, event (alias event_id), market (entries with splits for at least one of the named markets). Sorted by event start time, event id, book. limit default 100, max 200; offset max 5000 (past it 400 offset_too_large). Unknown sport, league, book or market is 400 invalid_request. Splits of events that left the board are dropped. ${TIER_NOTE}`,
  })
  @ApiOkResponse({ type: SplitsListResponseDto })
  list(@Query() q: ListSplitsQuery, @CurrentAccount() account: Account): SplitsListResponseDto {
    return this.splits.list(account, q);
  }

  @Get('history')
  @RequiresKey()
  @ApiOperation({
    summary: "One event's splits history (snapshots about every 5 minutes, kept 48 hours)",
    description: `\`event_id\` is required (alias \`event\`; missing: 400 invalid_request naming it). Entries are oldest first, one per (capture, book). \`start_time\`/\`end_time\` (inclusive; RFC 3339 or Unix seconds, anything else 400; start after end 400) bound the window. Without \`sportsbook\`, at most \`limit\` (1-200, default 100) entries are returned: the most recent ones, still oldest first, with \`meta.truncated\` true when more matched. With \`sportsbook\`, \`limit\` is ignored and every match in the window is returned. \`meta.total\` counts the matches before the limit, \`meta.books\` lists their books, \`meta.oldest\`/\`meta.newest\` are the capture times of the first and last returned entries (null when none). An event id with no snapshots (unknown, or history older than 48 h) is 200 with empty \`data\`, not 404: history may outlive the event on the board. Free keys do not see snapshots captured in the last 60 s. ${TIER_NOTE}`,
  })
  @ApiOkResponse({ type: SplitsHistoryResponseDto })
  history(@Query() q: SplitsHistoryQuery, @CurrentAccount() account: Account): Promise<SplitsHistoryResponseDto> {
    return this.splits.history(account, q);
  }
}
