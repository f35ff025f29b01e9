import { Global, Module } from '@nestjs/common';
import { AccountsModule } from '../../modules/accounts/accounts.module.js';
import { Authenticator } from './authenticator.js';

/** The Authenticator, for every transport: the HTTP key guard, SSE and the WebSocket gateway. */
@Global()
@Module({ imports: [AccountsModule], providers: [Authenticator], exports: [Authenticator] })
export class AuthModule {}
