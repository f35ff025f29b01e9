import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A futures price's source (its staleness window, what `import:remove` withdraws) and history markets (replayed imports). */
export class FuturesSources1764300000100 implements MigrationInterface {
  name = 'FuturesSources1764300000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "futures_prices" ADD COLUMN "source" text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE "futures_markets" ADD COLUMN "history" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "futures_markets" DROP COLUMN "history"`);
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "source"`);
  }
}
