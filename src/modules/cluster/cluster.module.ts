import { Global, Module } from '@nestjs/common';
import { Jobs } from './jobs.service.js';
import { Leadership } from './leadership.service.js';

@Global()
@Module({ providers: [Leadership, Jobs], exports: [Leadership, Jobs] })
export class ClusterModule {}
