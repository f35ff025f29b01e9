import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequiresKey } from '../../common/auth/decorators.js';
import { ClvService } from './clv.service.js';
import { ClvQuery } from './dto/clv.query.dto.js';
import { ClvResponseDto } from './dto/clv.response.dto.js';

@ApiTags('Historical')
@Controller('historical')
export class ClvController {
  constructor(private readonly clv: ClvService) {}

  @Get('clv')
  @RequiresKey()
  @ApiOperation({
    summary: "CLV track record of the service's own +EV detections",
    description:
      "Every +EV price detected before its game starts is recorded at its first detection (price, fair probability and EV by CLV_DEVIG_METHOD, default power, and the sharp book devigged). When that sharp book's closing line is captured (the game goes live, or its start passes), CLV% = (closing no-vig probability x entry decimal - 1) x 100: the close of the bet's own line when the sharp book closed it (clv_method same_line), else for a full-game spread or total the sport's score model fitted to the sharp book's nearest closing line of the same market and read at the bet's line (clv_method fitted_distribution; counts `clv_same_line` and `clv_fitted`). Detections on games postponed or cancelled are void: counted in `void_count` and in no other figure. When the game ends, the bet is graded win/loss/push on the final score (props and period markets stay ungraded). Groups by `group_by`: sportsbook (default), sport, league, market, day, devig_book; filters sport, league, sportsbook, devig_book; `from`/`to` on the detection time (default the last 7 days). Every tier may call it; how far back it looks depends on the tier: free 7 days, hobby 30, pro 90, sharp 365, enterprise unlimited (an earlier `from` is moved to the window start and `meta.window_clamped` is true).",
  })
  @ApiOkResponse({ type: ClvResponseDto })
  report(@Query() q: ClvQuery, @Req() req: FastifyRequest) {
    return this.clv.report(req.account!, q);
  }
}
