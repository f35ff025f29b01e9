import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics (prom-client), one registry per application instance. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429 rate_limited',
    labelNames: ['tier'] as const,
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'auth_failures_total',
    help: 'Requests with a wrong API key or admin token',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly ingestQuotes = new Counter({
    name: 'ingest_quotes_total',
    help: 'Quotes received from providers and imports',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly ingestChanges = new Counter({
    name: 'ingest_price_changes_total',
    help: 'Prices that changed on the board',
    registers: [this.registry],
  });
  readonly ingestRejected = new Counter({
    name: 'ingest_rejected_total',
    help: 'Quotes left out, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly detectionLatency = new Histogram({
    name: 'detection_latency_seconds',
    help: 'Time to re-evaluate the market groups a change set touched',
    buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
    registers: [this.registry],
  });
  readonly busLag = new Histogram({
    name: 'bus_lag_seconds',
    help: 'Age of change sets from other instances when they arrive',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });
  readonly streamFrames = new Counter({ name: 'stream_frames_total', help: 'Frames sent to stream clients', registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge whose value is read at scrape time. */
  gauge(name: string, help: string, read: () => number): void {
    if (this.registry.getSingleMetric(name)) return;
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }
}
