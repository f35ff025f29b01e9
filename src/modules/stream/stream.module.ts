import { Module, type OnModuleInit } from '@nestjs/common';
import { StreamCounts } from '../accounts/stream-counts.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DetectionModule } from '../detection/detection.module.js';
import { StreamKeyWatch } from './key-watch.js';
import { SseController } from './sse.controller.js';
import { StreamAccess } from './stream-access.js';
import { StreamHub } from './stream-hub.js';
import { WsGateway } from './ws.gateway.js';
import { BoardModule } from '../board/board.module.js';
import { EventsModule } from '../events/events.module.js';
import { OddsModule } from '../odds/odds.module.js';

/** SSE and WebSocket streams, fed by the hub from the bus (prices) and the detection engine (opportunities). */
@Module({
  imports: [AccountsModule, BoardModule, EventsModule, OddsModule, DetectionModule],
  controllers: [SseController],
  providers: [StreamHub, StreamAccess, WsGateway, StreamKeyWatch],
  exports: [StreamHub],
})
export class StreamModule implements OnModuleInit {
  constructor(
    private readonly hub: StreamHub,
    private readonly counts: StreamCounts,
  ) {}

  /** The account's usage reports the streams a key holds (GET /account/usage). */
  onModuleInit(): void {
    this.counts.register((keyId) => this.hub.streamsOfKey(keyId));
  }
}
