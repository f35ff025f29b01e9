import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Splits1763900000000 implements MigrationInterface {
  name = 'Splits1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "splits_snapshots" (
      "id" BIGSERIAL NOT NULL,
      "event_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "home_team" text NOT NULL,
      "away_team" text NOT NULL,
      "captured_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "payload" jsonb NOT NULL,
      CONSTRAINT "PK_splits_snapshots" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_splits_snapshots_event" ON "splits_snapshots" ("event_id", "captured_at")`);
    await q.query(`CREATE INDEX "ix_splits_snapshots_captured" ON "splits_snapshots" ("captured_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "splits_snapshots"`);
  }
}
