import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Closing lines (each book's last pre-game prices of an event) and the CLV track record of +EV detections. */
export class ClosingLinesClv1764150000000 implements MigrationInterface {
  name = 'ClosingLinesClv1764150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "closing_lines" (
      "event_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "home_team" text NOT NULL,
      "away_team" text NOT NULL,
      "event_start_time" TIMESTAMP WITH TIME ZONE NOT NULL,
      "captured_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "lines" jsonb NOT NULL,
      CONSTRAINT "PK_closing_lines" PRIMARY KEY ("event_id", "sportsbook"))`);
    await q.query(`CREATE INDEX "ix_closing_lines_captured" ON "closing_lines" ("captured_at")`);
    await q.query(`CREATE TABLE "clv_predictions" (
      "opportunity_id" text NOT NULL,
      "event_id" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "home_team" text NOT NULL,
      "away_team" text NOT NULL,
      "event_start_time" TIMESTAMP WITH TIME ZONE NOT NULL,
      "sportsbook" text NOT NULL,
      "market_type" text NOT NULL,
      "period" text NOT NULL,
      "group_key" text NOT NULL,
      "selection" text NOT NULL,
      "selection_type" text NOT NULL,
      "line" double precision,
      "player_name" text,
      "entry_american" integer NOT NULL,
      "entry_decimal" double precision NOT NULL,
      "fair_probability" double precision NOT NULL,
      "ev_percent" double precision NOT NULL,
      "devig_method" text NOT NULL,
      "devig_book" text NOT NULL,
      "outcome_count" integer NOT NULL,
      "detected_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "closing_probability" double precision,
      "clv_percent" double precision,
      "closed_at" TIMESTAMP WITH TIME ZONE,
      "result" text,
      "graded_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_clv_predictions" PRIMARY KEY ("opportunity_id"))`);
    await q.query(`CREATE INDEX "ix_clv_predictions_event" ON "clv_predictions" ("event_id")`);
    await q.query(`CREATE INDEX "ix_clv_predictions_detected" ON "clv_predictions" ("detected_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "clv_predictions"`);
    await q.query(`DROP TABLE "closing_lines"`);
  }
}
