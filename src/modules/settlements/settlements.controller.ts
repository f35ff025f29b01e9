import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { SettlementsQuery } from './dto/settlements.query.dto.js';
import { SettlementsResponseDto } from './dto/settlements.response.dto.js';
import { SettlementsService } from './settlements.service.js';

@ApiTags('Historical')
@Controller('settlements')
export class SettlementsController {
  constructor(private readonly settlements: SettlementsService) {}

  @Get()
  @RequiresFeature('settlements')
  @ApiOperation({
    summary: "Settled +EV signals: the service's own +EV detections graded at the final score",
    description:
      "Every +EV price detected before its game starts (the CLV track record's detections) once its game is settled: `won`, `lost` or `push` on the final score (full-game moneylines, spreads and totals; props and period markets are not graded and not listed), or `void` when the game was postponed or cancelled (never graded). Each settlement carries the opportunity's `hash_id`, the game, market, selection, line, player, the price taken, the outcome and the CLV when the sharp book's close was captured. `data` is an object: `total_settlements`, `truncated` (more pages follow), `next_offset` and `settlements[]`, newest settlement first. Filters `hash_id`, `game_id`, `market_type`, `selection`, `player_id`; `limit` (default 100, at most 1000) and `offset`. The list reaches back as far as the tier's CLV window (pro 90 days, sharp 365, enterprise unlimited): games starting on or after `meta.grading_cutoff`. Feature `settlements` (pro and up). 503 `service_unavailable` when the grading store cannot be read.",
  })
  @ApiOkResponse({ type: SettlementsResponseDto })
  @ApiServiceUnavailableResponse({ description: 'The grading store cannot be read (`service_unavailable`)' })
  list(@Query() q: SettlementsQuery, @Req() req: FastifyRequest) {
    return this.settlements.list(req.account!, q);
  }
}
