import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An API key. Only a SHA-256 hash of the key is stored; the key itself is shown once, at creation. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('text')
  id: string;

  @Index('uq_api_keys_key_hash', { unique: true })
  @Column('text', { name: 'key_hash' })
  keyHash: string;

  /** The first characters of the key, for recognising it in listings (never enough to use it). */
  @Column('text', { name: 'key_prefix' })
  keyPrefix: string;

  @Column('text', { nullable: true })
  name: string | null;

  @Column('text')
  tier: string;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  /** The per-account arbitrage flag: on by default; off, the key gets 403 on arbitrage whatever its tier. */
  @Column('boolean', { name: 'arbitrage_enabled', default: true })
  arbitrageEnabled: boolean;

  /** Where the key came from: env (API_KEYS), demo, cli, api. */
  @Column('text', { default: 'cli' })
  source: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
