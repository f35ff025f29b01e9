import { readJson } from './paths.js';

export type TierName = 'free' | 'hobby' | 'pro' | 'sharp' | 'enterprise';
export const TIERS: readonly TierName[] = ['free', 'hobby', 'pro', 'sharp', 'enterprise'];

/** The service's own features. Each opportunity type declares its own (`ev`, `arbitrage`, ...) in its module. */
export const CORE_FEATURES = ['odds', 'splits', 'game_state', 'streaming'] as const;
export type CoreFeature = (typeof CORE_FEATURES)[number];
/**
 * A tier feature: a core feature or one an opportunity type declares (its Detector's `feature`). A tier's
 * features come from config/tiers.json; one the file does not name falls back to the type's declared tier.
 */
// `string & {}` keeps the core names suggested while any declared feature name is accepted.
export type Feature = CoreFeature | (string & {});

/** The add-ons an account can hold on top of its tier: each grants the feature of the same name. */
export const ADDONS = ['game_state'] as const;
export type Addon = (typeof ADDONS)[number];

export function isAddon(name: string): name is Addon {
  return (ADDONS as readonly string[]).includes(name);
}

export interface TierDefinition {
  name: TierName;
  requestsPerMinute: number;
  dataDelaySeconds: number;
  /** null = every book the tier may name. */
  maxBooks: number | null;
  /** null = derived from the catalog: the first maxBooks open books by popularity. */
  defaultBooks: string[] | null;
  batchSize: number;
  maxStreams: number;
  /** Keys an account of the tier may hold at once (an account's own max_keys overrides it). */
  maxKeys: number;
  /** The features config/tiers.json names for the tier (a name it leaves out: see AccessPolicy.tierHas). */
  features: Readonly<Record<string, boolean>>;
}

interface TierFile {
  order: TierName[];
  tiers: Record<
    TierName,
    {
      requests_per_minute: number;
      data_delay_seconds: number;
      max_books: number | null;
      default_books: string[] | null;
      batch_size: number;
      max_streams: number;
      max_keys: number;
      features: Record<string, boolean>;
    }
  >;
  keyless: { requests_per_minute: number };
}

export interface TierTable {
  byName: Record<TierName, TierDefinition>;
  keylessRequestsPerMinute: number;
}

export function isTier(value: string): value is TierName {
  return (TIERS as readonly string[]).includes(value);
}

/** Rank of a tier: free 0 ... enterprise 4. */
export function tierRank(tier: TierName): number {
  return TIERS.indexOf(tier);
}

export function loadTiers(enterpriseRequestsPerMinute?: number, enterpriseMaxKeys?: number): TierTable {
  const file = readJson<TierFile>('config', 'tiers.json');
  const byName = {} as Record<TierName, TierDefinition>;
  for (const name of TIERS) {
    const t = file.tiers[name];
    if (!t) throw new Error(`config/tiers.json: tier ${name} is missing`);
    byName[name] = {
      name,
      requestsPerMinute: name === 'enterprise' && enterpriseRequestsPerMinute ? enterpriseRequestsPerMinute : t.requests_per_minute,
      dataDelaySeconds: t.data_delay_seconds,
      maxBooks: t.max_books,
      defaultBooks: t.default_books,
      batchSize: t.batch_size,
      maxStreams: t.max_streams,
      maxKeys: name === 'enterprise' && enterpriseMaxKeys ? enterpriseMaxKeys : t.max_keys,
      features: t.features,
    };
  }
  return { byName, keylessRequestsPerMinute: file.keyless.requests_per_minute };
}
