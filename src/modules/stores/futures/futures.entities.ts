import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A futures market (futures.types FuturesMarket). */
@Entity('futures_markets')
export class FuturesMarketEntity {
  @PrimaryColumn('text') id: string;
  @Column('text') name: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'future_type' }) futureType: string;
  @Column('text') kind: string;
  @Column('timestamptz', { name: 'closes_at' }) closesAt: Date;
  @Column('boolean', { default: false }) history: boolean;
}

/** A current futures price at one book (FuturesPrice). */
@Entity('futures_prices')
@Index('ix_futures_prices_market', ['marketId'])
export class FuturesPriceEntity {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'market_id' }) marketId: string;
  @Column('text') sportsbook: string;
  @Column('text') selection: string;
  @Column('text', { name: 'selection_type' }) selectionType: string;
  @Column('double precision', { nullable: true }) line: number | null;
  @Column('integer') american: number;
  @Column('double precision') decimal: number;
  @Column('double precision') probability: number;
  @Column('text', { name: 'external_id', nullable: true }) externalId: string | null;
  @Column('timestamptz', { name: 'changed_at' }) changedAt: Date;
  @Column('timestamptz', { name: 'last_seen_at' }) lastSeenAt: Date;
  @Column('text', { default: '' }) source: string;
  @Column('double precision', { nullable: true }) bid: number | null;
  @Column('double precision', { nullable: true }) ask: number | null;
  @Column('double precision', { name: 'last_price', nullable: true }) lastPrice: number | null;
  @Column('double precision', { nullable: true }) volume: number | null;
  @Column('double precision', { name: 'open_interest', nullable: true }) openInterest: number | null;
}
