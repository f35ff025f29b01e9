import { Global, Module } from '@nestjs/common';
import { ReferenceController } from './reference.controller.js';
import { ReferenceService } from './reference.service.js';
import { RefBlocks } from './ref-blocks.js';

@Global()
@Module({ controllers: [ReferenceController], providers: [ReferenceService, RefBlocks], exports: [ReferenceService, RefBlocks] })
export class ReferenceModule {}
