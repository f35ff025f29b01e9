import type { TierName } from '../../config/tiers.js';

/** The caller, as resolved from its API key by the key guard. */
export interface Account {
  keyId: string;
  /** The account (user) that owns the key; its tier and flags are the key's. */
  accountId: string;
  name: string | null;
  tier: TierName;
  arbitrageEnabled: boolean;
  /** Add-ons bought on top of the tier (`game_state`): each grants the feature of that name. */
  addons?: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
}
