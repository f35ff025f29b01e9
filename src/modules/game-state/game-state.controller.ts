import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { badRequest } from '../../common/http/api-error.js';
import { GameStateDto, GameStateListResponseDto } from './dto/game-state.response.dto.js';
import { GameStateService } from './game-state.service.js';

const DESCRIPTION =
  'Live games only: score, period, clock and what the source reports (possession, server, sets...). Scores by consensus of at least two sources at the furthest period, the clock by its direction, the rest from the primary source; `stale` / `aggregator_stale` only when true. Enterprise, or a key with the `game_state` add-on; otherwise 403 `tier_restricted` with `addon: "game_state"`. The same objects come on the `gamestate` stream channel and as `game_state` on /events.';

@ApiTags('Game state')
@ApiExtraModels(GameStateDto)
@Controller('gamestate')
export class GameStateController {
  constructor(private readonly states: GameStateService) {}

  @Get()
  @RequiresFeature('game_state')
  @ApiOperation({ summary: 'Live game state of every live game, by sport', description: DESCRIPTION })
  @ApiOkResponse({ type: GameStateListResponseDto })
  all(@Req() req: FastifyRequest) {
    return this.states.list(req.account!);
  }

  @Get(':sport')
  @RequiresFeature('game_state')
  @ApiParam({
    name: 'sport',
    description: 'Sport id, case-insensitive (basketball, BASKETBALL); unknown: `data` is `{}`',
    example: 'basketball',
  })
  @ApiOperation({ summary: 'Live game state of one sport', description: DESCRIPTION })
  @ApiOkResponse({ type: GameStateListResponseDto })
  sport(@Param('sport') sport: string, @Req() req: FastifyRequest) {
    if (sport.length > 64) throw badRequest('Invalid path parameter "sport": longer than 64 characters', { parameter: 'sport' });
    return this.states.list(req.account!, sport);
  }
}
