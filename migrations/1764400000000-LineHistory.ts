import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The line history: every price change of every board row, as a change (not a snapshot). Series hold each row's text
 * once; changes are narrow rows keyed by (series, time), columns ordered so that the row needs no padding.
 */
export class LineHistory1764400000000 implements MigrationInterface {
  name = 'LineHistory1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "line_history_series" (
      "id" SERIAL NOT NULL,
      "odds_id" text NOT NULL,
      "event_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "market_type" text NOT NULL,
      "period" text NOT NULL,
      "selection" text NOT NULL,
      "selection_type" text NOT NULL,
      "line" double precision,
      "player_name" text,
      "first_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_line_history_series" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ux_line_history_series_odds" ON "line_history_series" ("odds_id")`);
    await q.query(
      `CREATE INDEX "ix_line_history_series_lookup" ON "line_history_series" ("event_id", "market_type", "selection_type", "line", "sportsbook")`,
    );
    await q.query(`CREATE TABLE "line_history" (
      "at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "series_id" integer NOT NULL,
      "price_e4" integer,
      "odds_american" integer,
      "is_live" boolean NOT NULL,
      "is_active" boolean NOT NULL,
      CONSTRAINT "PK_line_history" PRIMARY KEY ("series_id", "at"))`);
    await q.query(`CREATE INDEX "ix_line_history_at" ON "line_history" USING brin ("at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "line_history"`);
    await q.query(`DROP TABLE "line_history_series"`);
  }
}
