import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { badRequest } from '../../common/http/api-error.js';
import { BacktestService, MAX_RUNNING_PER_ACCOUNT } from './backtest.service.js';
import { BacktestBody } from './dto/backtest.body.js';
import { BacktestJobDto, BacktestStartedDto } from './dto/backtest.response.dto.js';

const uuid = new ParseUUIDPipe({ exceptionFactory: () => badRequest('id must be a backtest id (a UUID)', { parameter: 'id' }) });

@ApiTags('Historical')
@Controller('historical/backtest')
export class BacktestController {
  constructor(private readonly backtests: BacktestService) {}

  @Post()
  @HttpCode(202)
  @RequiresFeature('backtest')
  @ApiOperation({
    summary: 'Start a backtest of a +EV rule on simulated days (enterprise)',
    description: `Replays \`days\` simulated days (seeded) through the service's own pipeline, board and +EV detector, bets by the rule (min_ev percent with the devig method, books, stake flat \`units\` or kelly \`kelly_fraction\` with \`cap\`, one bet per market, \`delay_seconds\` of reaction time) and grades the bets at the final scores (docs/backtest.md). Answers 202 \`{id, status}\` at once; GET /historical/backtest/{id} gives the progress, then the report. At most ${MAX_RUNNING_PER_ACCOUNT} running backtest per account: another start is refused with 429 \`rate_limited\`. Jobs live in memory (a restart forgets them).`,
  })
  @ApiAcceptedResponse({ description: '`{id, status: "running"}`', type: BacktestStartedDto })
  @ApiBadRequestResponse({ description: 'invalid_request: the body names what is wrong' })
  @ApiTooManyRequestsResponse({ description: 'rate_limited: a backtest of this account is already running' })
  start(@Body() body: BacktestBody, @CurrentAccount() account: Account) {
    return this.backtests.start(account, body);
  }

  @Get(':id')
  @RequiresFeature('backtest')
  @ApiOperation({
    summary: 'A backtest: its progress, then its report (enterprise)',
    description:
      '`status` running (with `progress` in percent and `bets_so_far`), done (with `report`: source, rule, summary with bets, turnover, profit, ROI and its 95% interval, average EV at detection, average CLV, maximum drawdown; truth: realised ROI against the simulator’s true edge; the bankroll curve and every bet) or failed (`error`). 404 for an id this account did not start.',
  })
  @ApiOkResponse({ description: 'The job and, when done, its report', type: BacktestJobDto })
  get(@Param('id', uuid) id: string, @CurrentAccount() account: Account) {
    return this.backtests.get(account, id);
  }

  @Get(':id/bets.csv')
  @RequiresFeature('backtest')
  @ApiProduces('text/csv')
  @ApiOperation({
    summary: "A finished backtest's bets as CSV (enterprise)",
    description: 'One line per bet, the columns of the report’s `bets`. 404 while it runs.',
  })
  @ApiOkResponse({ description: 'CSV file backtest_<id>.csv', content: { 'text/csv': { schema: { type: 'string' } } } })
  csv(@Param('id', uuid) id: string, @CurrentAccount() account: Account, @Res({ passthrough: true }) reply: FastifyReply) {
    const { filename, body } = this.backtests.csv(account, id);
    void reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${filename}"`);
    return body;
  }
}
