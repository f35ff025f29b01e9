import { Inject, Injectable } from '@nestjs/common';
import { Catalog, type BookDef } from '../../config/catalog.js';
import { TIER_TABLE } from '../../config/config.module.js';
import { TIERS, tierRank, type Feature, type TierDefinition, type TierName, type TierTable } from '../../config/tiers.js';
import { badRequest, tierRestricted } from '../http/api-error.js';
import type { Account } from './account.js';

const FEATURE_LABEL: Record<Feature, string> = {
  odds: 'Odds',
  splits: 'Betting splits',
  ev: '+EV opportunities',
  arbitrage: 'Arbitrage opportunities',
  middles: 'Middles',
  middles_summary: 'The middles summary',
  low_hold: 'Low-hold opportunities',
  game_state: 'Game state',
  streaming: 'Streaming',
};

/**
 * The access policy: turns a key's tier into what it may do. Every controller, guard and the stream hub
 * ask this service; nothing else decides tier rules.
 */
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

@Injectable()
export class AccessPolicy {
  private readonly defaults = new Map<TierName, BookScope>();

  constructor(
    @Inject(TIER_TABLE) private readonly tiers: TierTable,
    private readonly catalog: Catalog,
  ) {}

  /** Whether a tier may name a book: the book's requires_tier is at or below the tier. */
  mayUseBook(tier: TierName, book: BookDef): boolean {
    return !book.requires_tier || tierRank(tier) >= tierRank(book.requires_tier);
  }

  /**
   * The default book set of a tier (DECISIONS.md #17-18): the tier's own list when configured (free:
   * DraftKings + FanDuel); otherwise the first max-books listed books open to the tier by popularity; every
   * book the tier may use when it has no maximum.
   */
  defaultBooks(tier: TierName): BookScope {
    const cached = this.defaults.get(tier);
    if (cached) return cached;
    const t = this.tiers.byName[tier];
    let s: BookScope;
    if (t.defaultBooks) s = scope(t.defaultBooks, false, true);
    else if (t.maxBooks === null) s = scope(this.catalog.books.filter((b) => this.mayUseBook(tier, b)).map((b) => b.id), true, true);
    else s = scope(this.catalog.listedBooks().filter((b) => this.mayUseBook(tier, b)).slice(0, t.maxBooks).map((b) => b.id), false, true);
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
      if (!b) throw badRequest(`Invalid parameter "${(requested ?? []).includes(raw) ? 'sportsbook' : 'add_sportsbook'}": unknown sportsbook "${raw}"`, { parameter: 'sportsbook' });
      if (!this.mayUseBook(tier, b)) {
        throw tierRestricted(`${b.display_name} (${b.id}) requires the ${b.requires_tier} tier or higher; this key is on the ${tier} tier`, b.requires_tier!, { tier });
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
      const next = TIERS.find((n) => tierRank(n) > tierRank(tier) && (this.tiers.byName[n].maxBooks === null || this.tiers.byName[n].maxBooks! >= ids.length)) ?? 'enterprise';
      throw tierRestricted(`The ${tier} tier covers at most ${t.maxBooks} sportsbooks per request; this request names ${ids.length}`, next, { tier, max_books: t.maxBooks, requested_books: ids.length });
    }
    return scope(ids, false, !requested?.length);
  }

  tier(tier: TierName): TierDefinition {
    return this.tiers.byName[tier];
  }

  /** The lowest tier that has a feature. */
  requiredTierFor(feature: Feature): TierName {
    const t = TIERS.find((name) => this.tiers.byName[name].features[feature]);
    return t ?? 'enterprise';
  }

  hasFeature(account: Account, feature: Feature): boolean {
    if (!this.tiers.byName[account.tier].features[feature]) return false;
    if (feature === 'arbitrage' && !account.arbitrageEnabled) return false;
    return true;
  }

  /** Throws 403 tier_restricted naming the feature and the tier it needs. */
  assertFeature(account: Account, feature: Feature): void {
    const required = this.requiredTierFor(feature);
    if (!this.tiers.byName[account.tier].features[feature]) {
      const plus = tierRank(required) < TIERS.length - 1 ? ' or higher' : '';
      throw tierRestricted(`${FEATURE_LABEL[feature]} require the ${required} tier${plus}; this key is on the ${account.tier} tier`, required, { tier: account.tier });
    }
    if (feature === 'arbitrage' && !account.arbitrageEnabled) {
      throw tierRestricted('Arbitrage is disabled for this account; ask the operator to enable it (npm run cli -- keys:arbitrage ID on)', required, { tier: account.tier });
    }
  }

  delaySeconds(account: Account | undefined): number {
    return account ? this.tiers.byName[account.tier].dataDelaySeconds : 0;
  }

  requestsPerMinute(account: Account | undefined): number {
    return account ? this.tiers.byName[account.tier].requestsPerMinute : this.tiers.keylessRequestsPerMinute;
  }
}
