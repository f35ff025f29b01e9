import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/decorators.js';
import { HealthService } from './health.service.js';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Service health (no key needed)',
    description: 'Checks store connectivity (`database`), data freshness (`data`), schema compatibility (`schema`) and Redis (`redis`). 200 with `ok` or `degraded`; 503 with `down` when the database cannot be reached.',
  })
  @ApiOkResponse({ description: 'ok or degraded', schema: { example: { status: 'ok', version: '1.0.0', timestamp: '2026-11-21T12:00:00.000Z', checks: { redis: { status: 'ok', latency_ms: 0, message: 'in-process' }, data: { status: 'ok', latency_ms: 0, message: 'board updated 1 s ago' }, schema: { status: 'ok', latency_ms: 1, message: '5 migrations applied' }, database: { status: 'ok', latency_ms: 1 } } } } })
  @ApiServiceUnavailableResponse({ description: 'down: the database cannot be reached' })
  async get(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.health.report();
    if (report.status === 'down') void reply.status(503);
    return report;
  }
}
