import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ApiPagedResponse } from '../../common/http/api-responses.js';
import { PlayersQuery } from './dto/players.query.dto.js';
import { PlayerDto } from './dto/player.response.dto.js';
import { PlayersService } from './players.service.js';

@ApiTags('Reference')
@Controller('players')
export class PlayersController {
  constructor(private readonly players: PlayersService) {}

  @Get()
  @RequiresFeature('players')
  @ApiPagedResponse(PlayerDto, { description: 'Players the sources quoted, by name' })
  @ApiOperation({
    summary: 'Players (every tier)',
    description:
      'Every player the sources have quoted: player props on the board, runners of player futures and awards (MVP, Cy Young, ...). `id` is sport_league_name (the `player_id` of +EV items and settlements), so a player quoted by two sources is one player. `team_id` is the team the latest quote naming one gives; `first_name`, `last_name` and `team_id` are absent when unknown. Filters `league`, `team` (id or name), `q` (part of the name, accents and case ignored); `limit` (default 50, at most 200) and `offset`. Feature `players` (free and up).',
  })
  list(@Query() q: PlayersQuery) {
    return this.players.list(q);
  }
}
