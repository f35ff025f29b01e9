import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { BoardModule } from '../board/board.module.js';
import { BoardService } from '../board/board.service.js';
import { Leadership } from '../cluster/leadership.service.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DetectionModule } from '../detection/detection.module.js';
import { idsDigest } from '../detection/lifecycle-wire.js';
import { StreamHub } from '../stream/stream-hub.js';
import { StreamModule } from '../stream/stream.module.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { LineHistoryModule } from '../stores/line-history/line-history.module.js';
import { LineHistoryStore } from '../stores/line-history/line-history.store.js';

/** Gauges read at scrape time from the services that own the numbers. */
@Module({ imports: [BoardModule, DetectionModule, StreamModule, LineHistoryModule] })
export class MetricsGaugesModule implements OnApplicationBootstrap {
  constructor(
    private readonly metrics: MetricsService,
    private readonly boards: BoardService,
    private readonly detection: DetectionEngine,
    private readonly hub: StreamHub,
    private readonly leadership: Leadership,
    private readonly history: LineHistoryStore,
  ) {}

  // At bootstrap: every module (the opportunity types too) is initialised by then.
  onApplicationBootstrap(): void {
    const m = this.metrics;
    m.gauge('board_rows', 'Prices on the board', () => this.boards.board.size);
    m.gauge('board_events', 'Events on the board', () => this.boards.board.events.size);
    m.gauge('board_write_backlog', 'Board changes waiting to be written to the database', () => this.boards.writer.pending);
    m.gauge('line_history_write_backlog', 'Line history changes waiting to be written to the database', () => this.history.writer.pending);
    m.gauge('line_history_stored_total', 'Line history changes written since start', () => this.history.writer.stats.stored);
    m.gauge(
      'line_history_dropped_total',
      'Line history changes not stored since start: dropped from a full buffer, or refused by the database for their data',
      () => this.history.writer.stats.dropped + this.history.writer.stats.refused,
    );
    // One gauge per opportunity type (its live count among all books): the types register before this runs.
    for (const d of this.detection.types()) m.gauge(d.gauge.name, d.gauge.help, () => this.detection.live(d.kind)?.size ?? 0);
    // And a fingerprint of its live ids: the active worker and its replicas show the same number when in step.
    for (const d of this.detection.types())
      m.gauge(
        `detection_ids_digest_${d.kind.replace(/[^a-z0-9_]/gi, '_')}`,
        `Fingerprint of the live ${d.kind} ids (all books): equal on instances holding the same opportunities`,
        () => idsDigest([...(this.detection.live(d.kind)?.values() ?? [])].map((r) => r.id)),
      );
    m.gauge(
      'detection_rescan_mismatches_total',
      'Opportunities the full re-scan found different from the incremental state',
      () => this.detection.stats.rescanMismatches,
    );
    m.gauge(
      'detection_snapshot_entries_written',
      'Records written (or removed) by the last refresh of the opportunities snapshot replicas load: only those changed since the one before',
      () => this.detection.publishing?.lastSnapshotEntries ?? 0,
    );
    m.gauge(
      'detection_snapshot_bytes_written',
      'Bytes of JSON written by the last refresh of the opportunities snapshot',
      () => this.detection.publishing?.lastSnapshotBytes ?? 0,
    );
    m.gauge(
      'detection_snapshots_full_total',
      'Refreshes of the opportunities snapshot that rewrote every record (a new term, a lost or failed write, every 60th)',
      () => this.detection.publishing?.fullSnapshots ?? 0,
    );
    m.gauge('stream_open', 'Open SSE and WebSocket streams', () => this.hub.openStreams);
    m.gauge(
      'stream_closing',
      'Streams closed by the server whose sockets have not yet let go of their queued data',
      () => this.hub.closingStreams,
    );
    m.gauge('worker_active', '1 when this instance is the active worker', () => (this.leadership.isLeader ? 1 : 0));
  }
}
