import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { BoardService } from '../board/board.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import { DetectionService } from '../detection/detection.service.js';
import { StreamHub } from '../stream/stream-hub.js';
import { StreamModule } from '../stream/stream.module.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

@Global()
@Module({ controllers: [MetricsController], providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}

/** Gauges read at scrape time from the services that own the numbers. */
@Module({ imports: [StreamModule] })
export class MetricsGaugesModule implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly boards: BoardService,
    private readonly detection: DetectionService,
    private readonly hub: StreamHub,
    private readonly leadership: Leadership,
  ) {}

  onModuleInit(): void {
    const m = this.metrics;
    m.gauge('board_rows', 'Prices on the board', () => this.boards.board.size);
    m.gauge('board_events', 'Events on the board', () => this.boards.board.events.size);
    m.gauge('board_write_backlog', 'Board changes waiting to be written to the database', () => this.boards.writer.pending);
    m.gauge('opportunities_ev', 'Live +EV items', () => this.detection.ev.size);
    m.gauge('opportunities_arbitrage', 'Live arbitrages (all books)', () => this.detection.arbitrage.get('all')?.size ?? 0);
    m.gauge('opportunities_middles', 'Live middles (all books)', () => this.detection.middles.get('all')?.size ?? 0);
    m.gauge('detection_rescan_mismatches_total', 'Opportunities the full re-scan found different from the incremental state', () => this.detection.stats.rescanMismatches);
    m.gauge('stream_open', 'Open SSE and WebSocket streams', () => this.hub.openStreams);
    m.gauge('stream_closing', 'Streams closed by the server whose sockets have not yet let go of their queued data', () => this.hub.closingStreams);
    m.gauge('worker_active', '1 when this instance is the active worker', () => (this.leadership.isLeader ? 1 : 0));
  }
}
