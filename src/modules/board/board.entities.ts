import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { EventStatus, GameState } from '../../domain/types.js';

/** A canonical event (one game), persisted so the board can be rebuilt at start. */
@Entity('events')
@Index('ix_events_league', ['league'])
@Index('ix_events_start_time', ['startTime'])
export class EventEntity {
  @PrimaryColumn('text') id: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'home_team' }) homeTeam: string;
  @Column('text', { name: 'away_team' }) awayTeam: string;
  @Column('text', { name: 'home_key' }) homeKey: string;
  @Column('text', { name: 'away_key' }) awayKey: string;
  @Column('timestamptz', { name: 'start_time' }) startTime: Date;
  @Column('text') status: EventStatus;
  @Column('jsonb', { name: 'external_ids', default: () => "'{}'" }) externalIds: Record<string, string>;
  @Column('jsonb', { name: 'game_state', nullable: true }) gameState: GameState | null;
  @Column('timestamptz', { name: 'first_seen_at' }) firstSeenAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
  @Column('timestamptz', { name: 'ended_at', nullable: true }) endedAt: Date | null;
}

/** The current price of one row (upserted in batches by the board writer). */
@Entity('odds')
@Index('ix_odds_event', ['eventId'])
@Index('ix_odds_sportsbook', ['sportsbook'])
export class OddsEntity {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') sportsbook: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'market_type' }) marketType: string;
  @Column('text') period: string;
  @Column('text', { name: 'ladder_key' }) ladderKey: string;
  @Column('text', { name: 'group_key' }) groupKey: string;
  @Column('double precision', { name: 'group_line', nullable: true }) groupLine: number | null;
  @Column('text') selection: string;
  @Column('text', { name: 'selection_type' }) selectionType: string;
  @Column('double precision', { nullable: true }) line: number | null;
  @Column('text', { name: 'player_name', nullable: true }) playerName: string | null;
  @Column('text', { name: 'stat_category', nullable: true }) statCategory: string | null;
  @Column('integer', { name: 'odds_american' }) oddsAmerican: number;
  @Column('double precision', { name: 'odds_decimal' }) oddsDecimal: number;
  @Column('double precision') probability: number;
  @Column('boolean', { name: 'is_live' }) isLive: boolean;
  @Column('boolean', { name: 'is_active' }) isActive: boolean;
  @Column('timestamptz', { name: 'changed_at' }) changedAt: Date;
  @Column('timestamptz', { name: 'odds_changed_at' }) oddsChangedAt: Date;
  @Column('timestamptz', { name: 'last_seen_at' }) lastSeenAt: Date;
  @Column('text', { name: 'external_event_id', nullable: true }) externalEventId: string | null;
  @Column('text', { name: 'market_id', nullable: true }) marketId: string | null;
  @Column('text', { name: 'selection_id', nullable: true }) selectionId: string | null;
  @Column('double precision', { name: 'max_bet', nullable: true }) maxBet: number | null;
  @Column('double precision', { nullable: true }) volume: number | null;
  @Column('double precision', { name: 'volume_24h', nullable: true }) volume24h: number | null;
  @Column('double precision', { name: 'open_interest', nullable: true }) openInterest: number | null;
  @Column('double precision', { nullable: true }) bid: number | null;
  @Column('double precision', { nullable: true }) ask: number | null;
  @Column('double precision', { name: 'last_price', nullable: true }) lastPrice: number | null;
  @Column('text', { name: 'home_pitcher', nullable: true }) homePitcher: string | null;
  @Column('text', { name: 'away_pitcher', nullable: true }) awayPitcher: string | null;
}

/** Append-only price history: one row per change of price, line, live or active state. */
@Entity('odds_history')
@Index('ix_odds_history_odds', ['oddsId', 'recordedAt'])
@Index('ix_odds_history_recorded', ['recordedAt'])
export class OddsHistoryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column('text', { name: 'odds_id' }) oddsId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') sportsbook: string;
  @Column('integer', { name: 'odds_american' }) oddsAmerican: number;
  @Column('double precision', { name: 'odds_decimal' }) oddsDecimal: number;
  @Column('double precision', { nullable: true }) line: number | null;
  @Column('boolean', { name: 'is_live' }) isLive: boolean;
  @Column('boolean', { name: 'is_active' }) isActive: boolean;
  @Column('timestamptz', { name: 'recorded_at' }) recordedAt: Date;
}

/** When a row left the board (a book pulled it, or its event ended). */
@Entity('odds_removals')
@Index('ix_odds_removals_removed', ['removedAt'])
export class OddsRemovalEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column('text', { name: 'odds_id' }) oddsId: string;
  @Column('text') sportsbook: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('timestamptz', { name: 'removed_at' }) removedAt: Date;
}
