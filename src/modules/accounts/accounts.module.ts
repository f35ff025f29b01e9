import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AccountController } from './account.controller.js';
import { AdminAccountsController, AdminKeysController } from './admin-keys.controller.js';
import { AccountService } from './account.service.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { StreamCounts } from './stream-counts.js';
import { UsageInterceptor } from './usage.interceptor.js';
import { UsageRepository } from './usage.repository.js';
import { UsageService } from './usage.service.js';

@Module({
  controllers: [AccountController, AdminKeysController, AdminAccountsController],
  providers: [
    ApiKeysRepository,
    ApiKeysService,
    AccountService,
    UsageRepository,
    UsageService,
    StreamCounts,
    { provide: APP_INTERCEPTOR, useClass: UsageInterceptor },
  ],
  exports: [ApiKeysService, UsageService, StreamCounts],
})
export class AccountsModule {}
