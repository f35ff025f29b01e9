import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One +EV detection, with its closing-line value once the event closed and its result once it settled. */
@Entity('clv_predictions')
@Index('ix_clv_predictions_event', ['eventId'])
@Index('ix_clv_predictions_detected', ['detectedAt'])
export class ClvPredictionEntity {
  @PrimaryColumn('text', { name: 'opportunity_id' }) opportunityId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') sport: string;
  @Column('text') league: string;
  @Column('text', { name: 'home_team' }) homeTeam: string;
  @Column('text', { name: 'away_team' }) awayTeam: string;
  @Column('timestamptz', { name: 'event_start_time' }) eventStartTime: Date;
  @Column('text') sportsbook: string;
  @Column('text', { name: 'market_type' }) marketType: string;
  @Column('text') period: string;
  @Column('text', { name: 'group_key' }) groupKey: string;
  @Column('text') selection: string;
  @Column('text', { name: 'selection_type' }) selectionType: string;
  @Column('double precision', { nullable: true }) line: number | null;
  @Column('text', { name: 'player_name', nullable: true }) playerName: string | null;
  @Column('integer', { name: 'entry_american' }) entryAmerican: number;
  @Column('double precision', { name: 'entry_decimal' }) entryDecimal: number;
  @Column('double precision', { name: 'fair_probability' }) fairProbability: number;
  @Column('double precision', { name: 'ev_percent' }) evPercent: number;
  @Column('text', { name: 'devig_method' }) devigMethod: string;
  @Column('text', { name: 'devig_book' }) devigBook: string;
  @Column('integer', { name: 'outcome_count' }) outcomeCount: number;
  @Column('timestamptz', { name: 'detected_at' }) detectedAt: Date;
  @Column('double precision', { name: 'closing_probability', nullable: true }) closingProbability: number | null;
  @Column('double precision', { name: 'clv_percent', nullable: true }) clvPercent: number | null;
  @Column('timestamptz', { name: 'closed_at', nullable: true }) closedAt: Date | null;
  /** same_line or fitted_distribution (null: no closing value). */
  @Column('text', { name: 'clv_method', nullable: true }) clvMethod: string | null;
  /** The closing line the probability comes from (home-side line for spreads). */
  @Column('double precision', { name: 'clv_reference_line', nullable: true }) clvReferenceLine: number | null;
  /** postponed or cancelled: the prediction is void and left out of the track record's figures. */
  @Column('text', { name: 'void_reason', nullable: true }) voidReason: string | null;
  @Column('text', { nullable: true }) result: string | null;
  @Column('timestamptz', { name: 'graded_at', nullable: true }) gradedAt: Date | null;
}
