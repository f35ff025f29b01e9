import { Module } from '@nestjs/common';
import { AccountController } from './account.controller.js';
import { AdminAccountsController, AdminKeysController } from './admin-keys.controller.js';
import { AccountService } from './account.service.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  controllers: [AccountController, AdminKeysController, AdminAccountsController],
  providers: [ApiKeysRepository, ApiKeysService, AccountService],
  exports: [ApiKeysService],
})
export class AccountsModule {}
