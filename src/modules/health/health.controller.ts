import { Controller, Get, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/decorators.js';
import { HealthCheckDto, HealthReportDto, ReadinessDto } from './health.response.dto.js';
import { HealthService } from './health.service.js';

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Service health (no key needed)',
    description:
      'Checks store connectivity (`database`), data freshness (`data`), schema compatibility (`schema`) and Redis (`redis`). 200 with `ok` or `degraded`; 503 with `down` when the database cannot be reached (the embedded store, busy with a large write, is `degraded`, not `down`).',
  })
  @ApiExtraModels(HealthCheckDto)
  @ApiOkResponse({ description: 'ok or degraded', type: HealthReportDto })
  @ApiServiceUnavailableResponse({ description: 'down: the database cannot be reached', type: HealthReportDto })
  async get(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.health.report();
    if (report.status === 'down') void reply.status(503);
    return report;
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness (no key needed)',
    description:
      "For load balancers and orchestrators: 200 `ready` once the instance serves reads, 503 `starting` before (while it opens the database and loads its board, every other route answers 503; a replica stays `starting` until it has caught up with the active worker's board). A database or Redis outage does not make a started instance unready: it keeps serving reads from memory.",
  })
  @ApiOkResponse({ description: 'ready', type: ReadinessDto })
  @ApiServiceUnavailableResponse({ description: 'starting', type: ReadinessDto })
  ready(@Res({ passthrough: true }) reply: FastifyReply): ReadinessDto {
    const { ready, startup } = this.health.readiness();
    if (!ready) void reply.status(503);
    return { status: ready ? 'ready' : 'starting', checks: { startup } };
  }
}
