import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { Authenticator } from './authenticator.js';

/**
 * The Authenticator, for every transport: the HTTP key guard, SSE and the WebSocket gateway. Global. The key store
 * it asks (KEY_LOOKUP, src/common/auth/key-lookup.ts) comes from `keyLookup`, the module that provides it.
 */
@Module({})
export class AuthModule {
  static forRoot(keyLookup: Type): DynamicModule {
    return { module: AuthModule, global: true, imports: [keyLookup], providers: [Authenticator], exports: [Authenticator] };
  }
}
