import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ApiKeys1763700000000 implements MigrationInterface {
  name = 'ApiKeys1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "api_keys" (
      "id" text NOT NULL,
      "key_hash" text NOT NULL,
      "key_prefix" text NOT NULL,
      "name" text,
      "tier" text NOT NULL,
      "is_active" boolean NOT NULL DEFAULT true,
      "arbitrage_enabled" boolean NOT NULL DEFAULT true,
      "source" text NOT NULL DEFAULT 'cli',
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "last_used_at" TIMESTAMP WITH TIME ZONE,
      "revoked_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys" ("key_hash")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "api_keys"`);
  }
}
