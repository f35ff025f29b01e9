import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An account (a user): it owns one or more API keys, and its tier and flags are what every one of its keys
 * gets. Keys created by API_KEYS, the CLI or the admin routes without naming an account get one of their own.
 */
@Entity('accounts')
export class AccountEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text')
  tier: string;

  /** The per-account arbitrage flag of the spec's arbitrage section (on by default; off, its keys get 403 feature_disabled on arbitrage). */
  @Column('boolean', { name: 'arbitrage_enabled', default: true })
  arbitrageEnabled: boolean;

  /** Keys the account may hold at once; null = its tier's number (config/tiers.json max_keys). */
  @Column('integer', { name: 'max_keys', nullable: true })
  maxKeys: number | null;

  /** Add-ons held on top of the tier (config/tiers.ts ADDONS), each granting the feature of its name; sorted, no repeats. */
  @Column('text', { array: true, default: () => "'{}'" })
  addons: string[];

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** Requests an account made on one UTC day (written in batches; each write adds to the day's count). */
@Entity('account_usage')
export class AccountUsageEntity {
  @PrimaryColumn('text', { name: 'account_id' })
  accountId: string;

  @PrimaryColumn('date')
  day: string;

  @Column('bigint', { default: 0 })
  requests: string;
}
