import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';
import { BoardModule } from '../board/board.module.js';

/** GET /health: database, schema, Redis, and the board's data check (read from the board). */
@Module({ imports: [BoardModule], controllers: [HealthController], providers: [HealthService], exports: [HealthService] })
export class HealthModule {}
