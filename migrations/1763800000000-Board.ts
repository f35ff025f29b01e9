import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Board1763800000000 implements MigrationInterface {
  name = 'Board1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "events" (
      "id" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "home_team" text NOT NULL,
      "away_team" text NOT NULL,
      "home_key" text NOT NULL,
      "away_key" text NOT NULL,
      "start_time" TIMESTAMP WITH TIME ZONE NOT NULL,
      "status" text NOT NULL,
      "external_ids" jsonb NOT NULL DEFAULT '{}',
      "game_state" jsonb,
      "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "ended_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_events" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_events_league" ON "events" ("league")`);
    await q.query(`CREATE INDEX "ix_events_start_time" ON "events" ("start_time")`);
    await q.query(`CREATE TABLE "odds" (
      "id" text NOT NULL,
      "event_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "market_type" text NOT NULL,
      "period" text NOT NULL,
      "ladder_key" text NOT NULL,
      "group_key" text NOT NULL,
      "group_line" double precision,
      "selection" text NOT NULL,
      "selection_type" text NOT NULL,
      "line" double precision,
      "player_name" text,
      "stat_category" text,
      "odds_american" integer NOT NULL,
      "odds_decimal" double precision NOT NULL,
      "probability" double precision NOT NULL,
      "is_live" boolean NOT NULL,
      "is_active" boolean NOT NULL,
      "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "odds_changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "external_event_id" text,
      "market_id" text,
      "selection_id" text,
      "max_bet" double precision,
      CONSTRAINT "PK_odds" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_odds_event" ON "odds" ("event_id")`);
    await q.query(`CREATE INDEX "ix_odds_sportsbook" ON "odds" ("sportsbook")`);
    await q.query(`CREATE TABLE "odds_history" (
      "id" BIGSERIAL NOT NULL,
      "odds_id" text NOT NULL,
      "event_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "odds_american" integer NOT NULL,
      "odds_decimal" double precision NOT NULL,
      "line" double precision,
      "is_live" boolean NOT NULL,
      "is_active" boolean NOT NULL,
      "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_odds_history" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_odds_history_odds" ON "odds_history" ("odds_id", "recorded_at")`);
    await q.query(`CREATE INDEX "ix_odds_history_recorded" ON "odds_history" ("recorded_at")`);
    await q.query(`CREATE TABLE "odds_removals" (
      "id" BIGSERIAL NOT NULL,
      "odds_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "event_id" text NOT NULL,
      "removed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_odds_removals" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_odds_removals_removed" ON "odds_removals" ("removed_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "odds_removals"`);
    await q.query(`DROP TABLE "odds_history"`);
    await q.query(`DROP TABLE "odds"`);
    await q.query(`DROP TABLE "events"`);
  }
}
