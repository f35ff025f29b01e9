import { Inject, Injectable } from '@nestjs/common';
import { Catalog, type BookDef } from '../../config/catalog.js';
import { TIER_TABLE } from '../../config/config.module.js';
import { TIERS, tierRank, type CoreFeature, type Feature, type TierDefinition, type TierName, type TierTable } from '../../config/tiers.js';
import type { Addon } from '../../config/tiers.js';
import { ApiError, badRequest, tierRestricted } from '../http/api-error.js';
import type { Account } from './account.js';

/** A tier feature as the policy knows it: the core ones below, and those the opportunity types declare. */
export interface FeatureDef {
  name: Feature;
  /** What a 403 says the feature is ("Middles require the pro tier"): plural. */
  label: string;
  /** Its column title in the API document's tier table; none: not a column. */
  title?: string;
  /** Who has it when config/tiers.json does not name it for a tier: this tier and those above. */
  fromTier: TierName;
  /** A per-account switch on top of the tier (arbitrage: the account's arbitrage flag), with its refusal. */
  account?: { allows(account: Account): boolean; refusal: string };
  /** An add-on that grants the feature to an account whose tier lacks it (its 403 names it as `addon`). */
  addon?: Addon;
}

const CORE: Record<CoreFeature, FeatureDef> = {
  odds: { name: 'odds', label: 'Odds', fromTier: 'free' },
  splits: { name: 'splits', label: 'Betting splits', fromTier: 'free' },
  game_state: { name: 'game_state', label: 'Game state', title: 'Game state', fromTier: 'enterprise', addon: 'game_state' },
  streaming: { name: 'streaming', label: 'Streaming', fromTier: 'hobby' },
};

/** The books a request covers, after the tier's book rules. `all` = no restriction (every book). */
export interface BookScope {
  books: string[];
  all: boolean;
  /** True when the caller named no book and got the tier's default set. */
  isDefault: boolean;
  has(book: string): boolean;
}

function scope(books: string[], all: boolean, isDefault: boolean): BookScope {
  const set = new Set(books);
  return { books, all, isDefault, has: all ? () => true : (b: string) => set.has(b) };
}

/**
 * The access policy: turns a key's tier into what it may do. Every controller, guard and the stream hub
 * ask this service; nothing else decides tier rules. The opportunity types' features are registered here by
 * the detection engine (their labels, tiers and account switches come with them).
 */
@Injectable()
export class AccessPolicy {
  private readonly defaults = new Map<TierName, BookScope>();
  /** The opportunity types' features, in registration order. */
  private readonly declared = new Map<string, FeatureDef>();
  /** Declared features the account does not list (a type's secondary features). */
  private readonly unlisted = new Set<string>();

  constructor(
    @Inject(TIER_TABLE) private readonly tiers: TierTable,
    private readonly catalog: Catalog,
  ) {}

  /** Whether a tier may name a book: the book's requires_tier is at or below the tier. */
  mayUseBook(tier: TierName, book: BookDef): boolean {
    return !book.requires_tier || tierRank(tier) >= tierRank(book.requires_tier);
  }

  /**
   * The default book set of a tier (used when a request names no sportsbook): the tier's own list when configured (free:
   * DraftKings + FanDuel); otherwise the first max-books listed books open to the tier by popularity; every
   * book the tier may use when it has no maximum.
   */
  defaultBooks(tier: TierName): BookScope {
    const cached = this.defaults.get(tier);
    if (cached) return cached;
    const t = this.tiers.byName[tier];
    let s: BookScope;
    if (t.defaultBooks) s = scope(t.defaultBooks, false, true);
    else if (t.maxBooks === null)
      s = scope(
        this.catalog.books.filter((b) => this.mayUseBook(tier, b)).map((b) => b.id),
        true,
        true,
      );
    else
      s = scope(
        this.catalog
          .listedBooks()
          .filter((b) => this.mayUseBook(tier, b))
          .slice(0, t.maxBooks)
          .map((b) => b.id),
        false,
        true,
      );
    this.defaults.set(tier, s);
    return s;
  }

  /**
   * The books one request covers. No `sportsbook`: the tier's default set (plus `add_sportsbook`). Naming an
   * unknown book is 400; a book above the tier is 403 naming the book; more distinct books than the tier's
   * maximum is 403 saying the maximum.
   */
  resolveBooks(account: Account | undefined, requested?: string[], added?: string[]): BookScope {
    const tier: TierName = account?.tier ?? 'free';
    const t = this.tiers.byName[tier];
    const named = [...(requested ?? []), ...(added ?? [])];
    const ids: string[] = [];
    for (const raw of named) {
      const b = this.catalog.book(raw);
      if (!b)
        throw badRequest(
          `Invalid parameter "${(requested ?? []).includes(raw) ? 'sportsbook' : 'add_sportsbook'}": unknown sportsbook "${raw}"`,
          { parameter: 'sportsbook' },
        );
      if (!this.mayUseBook(tier, b)) {
        throw tierRestricted(
          `${b.display_name} (${b.id}) requires the ${b.requires_tier} tier or higher; this key is on the ${tier} tier`,
          b.requires_tier!,
          { tier },
        );
      }
      if (!ids.includes(b.id)) ids.push(b.id);
    }
    if (!requested?.length) {
      const d = this.defaultBooks(tier);
      if (!ids.length) return d;
      if (d.all) return d;
      for (const b of d.books) if (!ids.includes(b)) ids.push(b);
    }
    if (t.maxBooks !== null && ids.length > t.maxBooks) {
      const next =
        TIERS.find(
          (n) => tierRank(n) > tierRank(tier) && (this.tiers.byName[n].maxBooks === null || this.tiers.byName[n].maxBooks! >= ids.length),
        ) ?? 'enterprise';
      throw tierRestricted(
        `The ${tier} tier covers at most ${t.maxBooks} sportsbooks per request; this request names ${ids.length}`,
        next,
        { tier, max_books: t.maxBooks, requested_books: ids.length },
      );
    }
    return scope(ids, false, !requested?.length);
  }

  tier(tier: TierName): TierDefinition {
    return this.tiers.byName[tier];
  }

  /**
   * Adds a feature an opportunity type declares; a name taken already (core or declared) is a programming error.
   * `listed: false`: a secondary feature of a type (the middles summary), not one of the account's features.
   */
  registerFeature(def: FeatureDef, opts: { listed?: boolean } = {}): void {
    if (this.definition(def.name)) throw new Error(`Feature "${def.name}" is declared twice`);
    this.declared.set(def.name, def);
    if (opts.listed === false) this.unlisted.add(def.name);
  }

  private definition(feature: Feature): FeatureDef | undefined {
    return (CORE as Record<string, FeatureDef>)[feature] ?? this.declared.get(feature);
  }

  /** Whether a tier has a feature: as config/tiers.json says, else from the feature's declared tier up. */
  tierHas(tier: TierName, feature: Feature): boolean {
    const configured = this.tiers.byName[tier].features[feature];
    if (configured !== undefined) return configured;
    const def = this.definition(feature);
    return def ? tierRank(tier) >= tierRank(def.fromTier) : false;
  }

  /** Every feature the policy knows: the core ones, then those the opportunity types declared. */
  featureNames(): Feature[] {
    return [...Object.keys(CORE), ...this.declared.keys()];
  }

  /** The lowest tier that has a feature. */
  requiredTierFor(feature: Feature): TierName {
    const t = TIERS.find((name) => this.tierHas(name, feature));
    return t ?? 'enterprise';
  }

  /** Whether the account bought the add-on that grants a feature. */
  private hasAddon(account: Account, def: FeatureDef | undefined): boolean {
    return Boolean(def?.addon && account.addons?.includes(def.addon));
  }

  hasFeature(account: Account, feature: Feature): boolean {
    if (!this.tierHas(account.tier, feature) && !this.hasAddon(account, this.definition(feature))) return false;
    return this.definition(feature)?.account?.allows(account) ?? true;
  }

  /**
   * The account's features and whether it has each (its own switches applied): odds and splits, each opportunity
   * type's in registration order, then game state and streaming.
   */
  featureFlags(account: Account): Record<string, boolean> {
    const types = [...this.declared.keys()].filter((f) => !this.unlisted.has(f));
    const names: Feature[] = ['odds', 'splits', ...types, 'game_state', 'streaming'];
    return Object.fromEntries(names.map((f) => [f, this.hasFeature(account, f)]));
  }

  /** Throws 403 tier_restricted naming the feature and the tier it needs; 403 feature_disabled when the account's switch is off. */
  assertFeature(account: Account, feature: Feature): void {
    const required = this.requiredTierFor(feature);
    const def = this.definition(feature);
    if (!this.tierHas(account.tier, feature) && !this.hasAddon(account, def)) {
      const plus = tierRank(required) < TIERS.length - 1 ? ' or higher' : '';
      const addon = def?.addon ? ` (or the ${def.addon} add-on)` : '';
      throw tierRestricted(
        `${def?.label ?? feature} require the ${required} tier${plus}${addon}; this key is on the ${account.tier} tier`,
        required,
        { tier: account.tier, ...(def?.addon ? { addon: def.addon } : {}) },
      );
    }
    // The tier has it but this account's switch is off: not a tier matter (no required_tier), its own code.
    if (def?.account && !def.account.allows(account))
      throw new ApiError('feature_disabled', def.account.refusal, { feature, tier: account.tier });
  }

  /**
   * The tier table of the API document: limits per tier, then a column per feature with a title (the
   * opportunity types' in registration order, then game state), then streams.
   */
  tierTableMarkdown(): string {
    const columns = [...this.declared.values(), ...Object.values(CORE)].filter((f) => f.title);
    const head = ['Tier', 'Requests/min', 'Data delay', 'Max books per request', ...columns.map((f) => f.title!), 'Streams'];
    const rows = TIERS.map((name) => {
      const t = this.tiers.byName[name];
      // The spec gives the top tier's rate as "custom" (ENTERPRISE_REQUESTS_PER_MINUTE sets it per deployment).
      const rate = name === 'enterprise' ? 'custom' : String(t.requestsPerMinute);
      const delay = t.dataDelaySeconds ? `${t.dataDelaySeconds} s` : '0';
      const books = t.maxBooks === null ? 'all' : String(t.maxBooks);
      return [name, rate, delay, books, ...columns.map((f) => (this.tierHas(name, f.name) ? 'yes' : '-')), String(t.maxStreams)];
    });
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
  }

  delaySeconds(account: Account | undefined): number {
    return account ? this.tiers.byName[account.tier].dataDelaySeconds : 0;
  }

  requestsPerMinute(account: Account | undefined): number {
    return account ? this.tiers.byName[account.tier].requestsPerMinute : this.tiers.keylessRequestsPerMinute;
  }
}
