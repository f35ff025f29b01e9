import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One price series: one board row (book, event, market, period, selection, line, player) whose changes the line
 * history keeps. Its text is stored once here; each change refers to it by `id`.
 */
@Entity('line_history_series')
@Index('ux_line_history_series_odds', ['oddsId'], { unique: true })
@Index('ix_line_history_series_lookup', ['eventId', 'marketType', 'selectionType', 'line', 'sportsbook'])
export class LineSeriesEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id: number;
  @Column('text', { name: 'odds_id' }) oddsId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') sportsbook: string;
  @Column('text', { name: 'market_type' }) marketType: string;
  @Column('text') period: string;
  @Column('text') selection: string;
  @Column('text', { name: 'selection_type' }) selectionType: string;
  @Column('double precision', { nullable: true }) line: number | null;
  @Column('text', { name: 'player_name', nullable: true }) playerName: string | null;
  /** When its first change was stored (the retention job removes a series once its changes are all gone). */
  @Column('timestamptz', { name: 'first_at' }) firstAt: Date;
}

/**
 * One change of one series: 48 bytes of row (a 24-byte header, then the time, the series, the price and the state,
 * laid out without padding) plus its primary-key entry. The price is the decimal price x 10^4 (the board keeps 4
 * decimals, so it is exact) and the American price; both null when the row was withdrawn. A BRIN index on the time
 * serves the retention job at almost no cost (rows arrive in time order).
 */
@Entity('line_history')
@Index('ix_line_history_at', ['at'], { type: 'brin' })
export class LineChangeEntity {
  @PrimaryColumn('integer', { name: 'series_id' }) seriesId: number;
  @PrimaryColumn('timestamptz') at: Date;
  @Column('integer', { name: 'price_e4', nullable: true }) priceE4: number | null;
  @Column('integer', { name: 'odds_american', nullable: true }) oddsAmerican: number | null;
  @Column('boolean', { name: 'is_live' }) isLive: boolean;
  @Column('boolean', { name: 'is_active' }) isActive: boolean;
}
