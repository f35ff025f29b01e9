import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { StreamKeyWatch } from './key-watch.js';
import { SseController } from './sse.controller.js';
import { StreamAccess } from './stream-access.js';
import { StreamHub } from './stream-hub.js';
import { WsGateway } from './ws.gateway.js';

@Module({ imports: [AccountsModule], controllers: [SseController], providers: [StreamHub, StreamAccess, WsGateway, StreamKeyWatch], exports: [StreamHub] })
export class StreamModule {}
