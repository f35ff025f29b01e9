import type { TierName } from '../../config/tiers.js';

/** The caller, as resolved from its API key by the key guard. */
export interface Account {
  keyId: string;
  /** The account (user) that owns the key; its tier and flags are the key's. */
  accountId: string;
  name: string | null;
  tier: TierName;
  arbitrageEnabled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
}
