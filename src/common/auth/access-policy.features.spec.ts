import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../config/catalog.js';
import { loadTiers, TIERS } from '../../config/tiers.js';
import { ApiError } from '../http/api-error.js';
import type { Account } from './account.js';
import { AccessPolicy, type FeatureDef } from './access-policy.js';

/** The features the opportunity types declare: tiers from config/tiers.json, else from their declared tier. */

const account = (tier: Account['tier'], arbitrageEnabled = true): Account => ({
  keyId: 'key_x',
  accountId: 'acct_x',
  name: null,
  tier,
  arbitrageEnabled,
});
const policy = () => new AccessPolicy(loadTiers(), new Catalog());
const refusal = (fn: () => void): ApiError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('declared features', () => {
  it('a feature config/tiers.json does not name is had from its declared tier up', () => {
    const p = policy();
    p.registerFeature({ name: 'steam', label: 'Steam moves', fromTier: 'sharp' });
    expect(TIERS.map((t) => p.tierHas(t, 'steam'))).toEqual([false, false, false, true, true]);
    expect(p.requiredTierFor('steam')).toBe('sharp');
    const e = refusal(() => p.assertFeature(account('pro'), 'steam'));
    expect([e.code, e.message, e.extras.required_tier]).toEqual([
      'tier_restricted',
      'Steam moves require the sharp tier or higher; this key is on the pro tier',
      'sharp',
    ]);
  });

  it('config/tiers.json wins over the declared tier (+EV: pro and up there, whatever the type declares)', () => {
    const p = policy();
    p.registerFeature({ name: 'ev', label: '+EV opportunities', fromTier: 'free' });
    expect(TIERS.map((t) => p.tierHas(t, 'ev'))).toEqual([false, false, true, true, true]);
  });

  it('an account switch refuses on top of the tier, with its own message', () => {
    const p = policy();
    const def: FeatureDef = {
      name: 'arbitrage',
      label: 'Arbitrage opportunities',
      fromTier: 'hobby',
      account: { allows: (a) => a.arbitrageEnabled, refusal: 'Arbitrage is disabled for this account' },
    };
    p.registerFeature(def);
    expect(p.hasFeature(account('pro'), 'arbitrage')).toBe(true);
    expect(p.hasFeature(account('pro', false), 'arbitrage')).toBe(false);
    const off = refusal(() => p.assertFeature(account('pro', false), 'arbitrage'));
    expect(off.message).toBe('Arbitrage is disabled for this account');
    // Not a tier matter: its own code, no required tier.
    expect(off.code).toBe('feature_disabled');
    expect(off.extras).toEqual({ feature: 'arbitrage', tier: 'pro' });
    // The tier is checked first: a free key hears about its tier.
    const free = refusal(() => p.assertFeature(account('free', false), 'arbitrage'));
    expect(free.message).toMatch(/^Arbitrage opportunities require the hobby tier or higher/);
    expect(free.code).toBe('tier_restricted');
  });

  it("a name is declared once, and never a core feature's", () => {
    const p = policy();
    p.registerFeature({ name: 'steam', label: 'Steam moves', fromTier: 'pro' });
    expect(() => p.registerFeature({ name: 'steam', label: 'Again', fromTier: 'pro' })).toThrow(/declared twice/);
    expect(() => p.registerFeature({ name: 'streaming', label: 'Streams', fromTier: 'pro' })).toThrow(/declared twice/);
  });

  it('the tier table has a column per titled feature, declared ones first in their order, then game state', () => {
    const p = policy();
    p.registerFeature({ name: 'steam', label: 'Steam moves', title: 'Steam', fromTier: 'sharp' });
    p.registerFeature({ name: 'hidden', label: 'Hidden', fromTier: 'free' });
    p.registerFeature({ name: 'ev', label: '+EV opportunities', title: '+EV', fromTier: 'pro' });
    expect(p.tierTableMarkdown().split('\n')).toEqual([
      '| Tier | Requests/min | Data delay | Max books per request | Steam | +EV | Game state | Streams |',
      '|---|---|---|---|---|---|---|---|',
      '| free | 12 | 60 s | 2 | - | - | - | 0 |',
      '| hobby | 120 | 0 | 5 | - | - | - | 1 |',
      '| pro | 300 | 0 | 15 | - | yes | - | 2 |',
      '| sharp | 1000 | 0 | all | yes | yes | - | 5 |',
      '| enterprise | custom | 0 | all | yes | yes | yes | 20 |',
    ]);
  });
});
