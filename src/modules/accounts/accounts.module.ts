import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { KEY_LOOKUP } from '../../common/auth/key-lookup.js';
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
    // The key store the Authenticator asks (the port src/common/auth declares).
    { provide: KEY_LOOKUP, useExisting: ApiKeysService },
    AccountService,
    UsageRepository,
    UsageService,
    StreamCounts,
    { provide: APP_INTERCEPTOR, useClass: UsageInterceptor },
  ],
  exports: [ApiKeysService, KEY_LOOKUP, UsageService, StreamCounts],
})
export class AccountsModule {}
