import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { OptionalKey, RequiresKey } from '../../common/auth/decorators.js';
import { ApiDataResponse, ApiListResponse, ApiPagedResponse } from '../../common/http/api-responses.js';
import { envelope, paginate } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { Revalidate } from '../../common/http/revalidation.js';
import { BoardService } from '../board/board.service.js';
import {
  LeagueDto,
  MarketDto,
  MarketsMetaDto,
  SportDto,
  SportsbookDto,
  SportsbooksMetaDto,
  TeamDto,
  TeamsMetaDto,
} from './dto/reference.response.dto.js';
import { LeaguesQuery, MarketsQuery, SportsbooksQuery, SportsQuery, TeamsQuery } from './dto/reference.query.js';
import { ReferenceService } from './reference.service.js';

@ApiTags('Reference data')
@Controller()
export class ReferenceController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly boards: BoardService,
    private readonly clock: Clock,
  ) {}

  @Get('sports')
  @Revalidate('listing')
  @OptionalKey()
  @ApiListResponse(SportDto, { description: 'Sports with events now (include_empty: every catalog sport)' })
  @ApiOperation({
    summary: 'Sports with current event and live counts',
    description:
      "Works without a key (10 requests a minute per IP); a key gives its tier's rate. `include_empty=true` lists every catalog sport.",
  })
  sports(@Query() q: SportsQuery, @CurrentAccount() account: Account | undefined) {
    const data = this.reference.sports(this.boards.viewFor(account), q.include_empty ?? false);
    return envelope(data, { meta: { count: data.length, total: data.length }, updated_at: this.clock.iso() });
  }

  @Get('sports/:sportId')
  @Revalidate('listing')
  @RequiresKey()
  @ApiParam({ name: 'sportId', example: 'basketball' })
  @ApiDataResponse(SportDto, { description: 'The sport' })
  @ApiOperation({ summary: 'One sport (404 when unknown)' })
  sport(@Param('sportId') id: string, @CurrentAccount() account: Account | undefined) {
    return envelope(this.reference.sport(this.boards.viewFor(account), id), { updated_at: this.clock.iso() });
  }

  @Get('leagues')
  @Revalidate('listing')
  @RequiresKey()
  @ApiListResponse(LeagueDto, { description: 'Leagues with events now (include_empty: every catalog league)' })
  @ApiOperation({ summary: 'Leagues with current event and live counts' })
  leagues(@Query() q: LeaguesQuery, @CurrentAccount() account: Account | undefined) {
    const data = this.reference.leagues(this.boards.viewFor(account), q.sport, q.include_empty ?? false);
    return envelope(data, { meta: { count: data.length, total: data.length }, updated_at: this.clock.iso() });
  }

  @Get('leagues/:leagueId')
  @Revalidate('listing')
  @RequiresKey()
  @ApiParam({ name: 'leagueId', example: 'nba' })
  @ApiDataResponse(LeagueDto, { description: 'The league' })
  @ApiOperation({ summary: 'One league (aliases such as soccer_epl accepted; 404 when unknown)' })
  league(@Param('leagueId') id: string, @CurrentAccount() account: Account | undefined) {
    return envelope(this.reference.league(this.boards.viewFor(account), id), { updated_at: this.clock.iso() });
  }

  @Get('sportsbooks')
  @RequiresKey()
  @ApiPagedResponse(SportsbookDto, { description: 'Every matching book, on one page', meta: SportsbooksMetaDto })
  @ApiOperation({
    summary: 'Sportsbooks',
    description:
      'By default, the listed books that have events now. `catalog=true` gives the configured catalog (26 listed books: 23 open to every tier, 3 sharp-tier) whether or not they have data; `include_unlisted` adds unlisted books; `include_inactive` adds books with no events.',
  })
  sportsbooks(@Query() q: SportsbooksQuery, @CurrentAccount() account: Account | undefined) {
    const all = this.reference.sportsbooks(this.boards.viewFor(account), q);
    const filters = {
      region: q.region ?? null,
      sharp: q.sharp ?? null,
      catalog: q.catalog ?? false,
      include_unlisted: q.include_unlisted ?? false,
      include_inactive: q.include_inactive ?? false,
    };
    const p = paginate(all, Math.max(all.length, 1), 0, { updated_at: this.clock.iso(), filters });
    return { ...p, updated_at: this.clock.iso() };
  }

  @Get('sportsbooks/:bookId')
  @RequiresKey()
  @ApiParam({ name: 'bookId', example: 'draftkings' })
  @ApiDataResponse(SportsbookDto, { description: 'The book' })
  @ApiOperation({ summary: 'One sportsbook (404 when unknown)' })
  sportsbook(@Param('bookId') id: string, @CurrentAccount() account: Account | undefined) {
    return envelope(this.reference.sportsbook(this.boards.viewFor(account), id), { updated_at: this.clock.iso() });
  }

  @Get('markets')
  @RequiresKey()
  @ApiListResponse(MarketDto, { description: 'Market types', meta: MarketsMetaDto })
  @ApiOperation({ summary: 'Market types, with how many events and rows carry them now' })
  markets(@Query() q: MarketsQuery, @CurrentAccount() account: Account | undefined) {
    const data = this.reference.markets(this.boards.viewFor(account), q.sport);
    return envelope(data, {
      meta: { count: data.length, total: data.length, aliases: this.reference.marketAliases() },
      updated_at: this.clock.iso(),
    });
  }

  @Get('teams')
  @Revalidate('listing')
  @RequiresKey()
  @ApiListResponse(TeamDto, { description: 'Teams', meta: TeamsMetaDto })
  @ApiOperation({ summary: 'Teams (and individual competitors) with aliases and current counts' })
  teams(@Query() q: TeamsQuery, @CurrentAccount() account: Account | undefined) {
    const { teams, meta } = this.reference.teams(this.boards.viewFor(account), q);
    return envelope(teams, { meta, updated_at: this.clock.iso() });
  }
}
