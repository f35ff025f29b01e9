import type { Account } from './account.js';

/**
 * The key store the Authenticator asks: the port `common` declares and the accounts module provides (under
 * KEY_LOOKUP), so that authentication depends on no feature module.
 */
export interface KeyLookup {
  /** The account of a valid key, or null (unknown, revoked, expired). */
  authenticate(rawKey: string): Promise<Account | null>;
  /** The account when the key is valid in the lookup cache, else undefined (then `authenticate` asks the store). */
  cachedAuthenticate(rawKey: string): Account | undefined;
}

/** The injection token of the KeyLookup. */
export const KEY_LOOKUP = Symbol('KEY_LOOKUP');
