import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/decorators.js';
import { MetricsService } from './metrics.service.js';

@ApiTags('Health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Public()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiProduces('text/plain')
  @ApiOperation({ summary: 'Prometheus metrics (not under /api/v1)', description: 'Request latency per route, rate-limit rejections, board size, ingest rate, detection latency, open streams, bus lag, database write backlog, and process metrics.' })
  get(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
