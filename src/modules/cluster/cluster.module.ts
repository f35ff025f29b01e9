import { Global, Module } from '@nestjs/common';
import { Leadership } from './leadership.service.js';

@Global()
@Module({ providers: [Leadership], exports: [Leadership] })
export class ClusterModule {}
