import { Global, Module } from '@nestjs/common';
import { DetectionModule } from '../detection/detection.module.js';
import { OddsController } from './odds.controller.js';
import { OddsItemBuilder } from './odds-item.js';
import { OddsService } from './odds.service.js';

@Global()
@Module({ imports: [DetectionModule], controllers: [OddsController], providers: [OddsService, OddsItemBuilder], exports: [OddsService, OddsItemBuilder] })
export class OddsModule {}
