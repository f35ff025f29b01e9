import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { SplitsMarkets } from './splits-store.js';

/** What a snapshot stores besides its key columns: the three markets, the source's scrape time and the event start. */
export interface SplitsPayload extends SplitsMarkets {
  /** RFC 3339: when the book published these numbers. */
  fetched_at: string;
  /** RFC 3339: the event's start time when captured. */
  start_time: string;
}

/** One (event, book) split as it stood at one capture (every ~5 minutes, kept 48 hours). */
@Entity('splits_snapshots')
@Index('ix_splits_snapshots_event', ['eventId', 'capturedAt'])
@Index('ix_splits_snapshots_captured', ['capturedAt'])
export class SplitsSnapshotEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') sportsbook: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'home_team' }) homeTeam: string;
  @Column('text', { name: 'away_team' }) awayTeam: string;
  @Column('timestamptz', { name: 'captured_at' }) capturedAt: Date;
  @Column('jsonb') payload: SplitsPayload;
}
