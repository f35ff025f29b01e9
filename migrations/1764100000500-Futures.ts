import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Futures1764100000500 implements MigrationInterface {
  name = 'Futures1764100000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "futures_markets" (
      "id" text NOT NULL,
      "name" text NOT NULL,
      "sport" text NOT NULL,
      "league" text NOT NULL,
      "future_type" text NOT NULL,
      "kind" text NOT NULL,
      "closes_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_futures_markets" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "futures_prices" (
      "id" text NOT NULL,
      "market_id" text NOT NULL,
      "sportsbook" text NOT NULL,
      "selection" text NOT NULL,
      "selection_type" text NOT NULL,
      "line" double precision,
      "american" integer NOT NULL,
      "decimal" double precision NOT NULL,
      "probability" double precision NOT NULL,
      "external_id" text,
      "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_futures_prices" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "ix_futures_prices_market" ON "futures_prices" ("market_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "futures_prices"`);
    await q.query(`DROP TABLE "futures_markets"`);
  }
}
