import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { ClosingLinesService } from './closing-lines.service.js';
import { ClosingLinesQuery } from './dto/closing-lines.query.dto.js';
import { ClosingLineItemDto, ClosingLinesResponseDto } from './dto/closing-lines.response.dto.js';

@ApiTags('Odds')
@Controller('odds')
export class ClosingLinesController {
  constructor(private readonly closing: ClosingLinesService) {}

  @Get('closing')
  @RequiresFeature('closing_line')
  @ApiExtraModels(ClosingLineItemDto)
  @ApiOperation({
    summary: 'Closing lines of one event (pro and up)',
    description:
      "Each book's last pre-game prices, captured when that book first quoted the event live (or when the event went live, or its start time passed). Only open prices confirmed within CLOSING_LINE_MAX_AGE_MINUTES (default 30) of the close are kept; a book that does not quote live loses any price it changed after the start. Kept CLOSING_LINES_RETENTION_HOURS (default 168 h, at least 48 h). `event_id` is required (alias `event`; missing: 400). `sportsbook` (alias `books`) narrows the books; the tier book rules of /odds apply (default: the tier's default books). Before the game starts, or for a book that quoted no pre-game price, `books` is `{}`. An event neither on the board nor captured is 404.",
  })
  @ApiOkResponse({ type: ClosingLinesResponseDto })
  get(@Query() q: ClosingLinesQuery, @Req() req: FastifyRequest) {
    return this.closing.get(req.account!, q);
  }
}
