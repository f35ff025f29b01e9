import { Global, Module } from '@nestjs/common';
import { DetectionService } from './detection.service.js';
import { OpportunitiesController } from './opportunities.controller.js';
import { OpportunitiesService } from './opportunities.service.js';
import { OpportunityPresenter } from './presenter.js';

@Global()
@Module({
  controllers: [OpportunitiesController],
  providers: [DetectionService, OpportunitiesService, OpportunityPresenter],
  exports: [DetectionService, OpportunitiesService, OpportunityPresenter],
})
export class OpportunitiesModule {}
