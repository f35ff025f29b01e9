import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity.js';

/** An API key of an account. Only a SHA-256 hash of the key is stored; the key itself is shown once, at creation. */
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

  @Index('ix_api_keys_account_id')
  @Column('text', { name: 'account_id' })
  accountId: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_api_keys_account' })
  account?: AccountEntity;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

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

  /** When a rotated-out key stops working (the grace period of a rotation); null = never by itself. */
  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;
}
