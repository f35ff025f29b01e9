import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';

/** GET /metrics: the metrics registry (src/common/metrics, global infrastructure every module counts into), exposed. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
