import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AdminOrLocal } from '../../common/auth/decorators.js';
import { ApiTextResponse } from '../../common/http/api-responses.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';

@ApiTags('Health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @AdminOrLocal()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiProduces('text/plain')
  @ApiTextResponse('text/plain', 'Metrics in the Prometheus text exposition format 0.0.4')
  @ApiOperation({
    summary: 'Prometheus metrics (not under /api/v1)',
    description:
      'Needs X-Admin-Token, except for a direct request from the same machine (loopback peer, no X-Forwarded-For/Forwarded header) while METRICS_ALLOW_LOCAL is on (the default). Request latency per route, rate-limit rejections, board size, ingest rate, detection latency, open streams, bus lag, database write backlog, and process metrics.',
  })
  get(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
