import type { TierName } from '../../config/tiers.js';

/** The caller, as resolved from its API key by the key guard. */
export interface Account {
  keyId: string;
  name: string | null;
  tier: TierName;
  arbitrageEnabled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: Account;
  }
}
