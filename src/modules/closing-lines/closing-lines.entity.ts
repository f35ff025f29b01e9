import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One closing price as stored (the fields of an `/odds/closing` line, plus the period and the market group). */
export interface StoredClosingLine {
  market_type: string;
  period: string;
  selection: string;
  selection_type: string;
  line: number | null;
  odds_american: number;
  /** As the board held it (served rounded to 3 decimals; CLV devigs the exact value). */
  odds_decimal: number;
  player_name: string | null;
  stat_category: string | null;
  /** The row's market group (event|market|period|subject|home-side line): what CLV devigs together. */
  group_key: string;
  is_active: boolean;
}

/** One book's last pre-game prices of one event, captured when the book first quoted the event live. */
@Entity('closing_lines')
@Index('ix_closing_lines_captured', ['capturedAt'])
export class ClosingLineEntity {
  @PrimaryColumn('text', { name: 'event_id' }) eventId: string;
  @PrimaryColumn('text') sportsbook: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'home_team' }) homeTeam: string;
  @Column('text', { name: 'away_team' }) awayTeam: string;
  @Column('timestamptz', { name: 'event_start_time' }) eventStartTime: Date;
  @Column('timestamptz', { name: 'captured_at' }) capturedAt: Date;
  @Column('jsonb') lines: StoredClosingLine[];
}
