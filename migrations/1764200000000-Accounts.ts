import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts own keys. Every existing key moves into an account of its own (its tier, arbitrage flag and name
 * move with it); keys gain an expiry for rotation grace periods; daily request totals per account.
 */
export class Accounts1764200000000 implements MigrationInterface {
  name = 'Accounts1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "accounts" (
      "id" text NOT NULL,
      "name" text,
      "tier" text NOT NULL,
      "arbitrage_enabled" boolean NOT NULL DEFAULT true,
      "max_keys" integer,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_accounts" PRIMARY KEY ("id"))`);
    const accountId = `CASE WHEN "id" LIKE 'key\\_%' THEN 'acct_' || substr("id", 5) ELSE 'acct_' || "id" END`;
    await q.query(`INSERT INTO "accounts" ("id", "name", "tier", "arbitrage_enabled", "max_keys", "created_at", "updated_at")
      SELECT ${accountId}, "name", "tier", "arbitrage_enabled", NULL, "created_at", "updated_at" FROM "api_keys"`);
    await q.query(`ALTER TABLE "api_keys" ADD "account_id" text`);
    await q.query(`UPDATE "api_keys" SET "account_id" = ${accountId}`);
    await q.query(`ALTER TABLE "api_keys" ALTER COLUMN "account_id" SET NOT NULL`);
    await q.query(`ALTER TABLE "api_keys" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "tier"`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "arbitrage_enabled"`);
    await q.query(`CREATE INDEX "ix_api_keys_account_id" ON "api_keys" ("account_id")`);
    await q.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "fk_api_keys_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(`CREATE TABLE "account_usage" (
      "account_id" text NOT NULL,
      "day" date NOT NULL,
      "requests" bigint NOT NULL DEFAULT 0,
      CONSTRAINT "PK_account_usage" PRIMARY KEY ("account_id", "day"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "account_usage"`);
    await q.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "fk_api_keys_account"`);
    await q.query(`DROP INDEX "ix_api_keys_account_id"`);
    await q.query(`ALTER TABLE "api_keys" ADD "tier" text`);
    await q.query(`ALTER TABLE "api_keys" ADD "arbitrage_enabled" boolean NOT NULL DEFAULT true`);
    await q.query(
      `UPDATE "api_keys" k SET "tier" = a."tier", "arbitrage_enabled" = a."arbitrage_enabled" FROM "accounts" a WHERE a."id" = k."account_id"`,
    );
    await q.query(`ALTER TABLE "api_keys" ALTER COLUMN "tier" SET NOT NULL`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "expires_at"`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "account_id"`);
    await q.query(`DROP TABLE "accounts"`);
  }
}
