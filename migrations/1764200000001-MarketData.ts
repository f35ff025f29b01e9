import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Exchange and prediction-market data on odds rows: traded volume, volume in the last 24 hours, open interest. */
export class MarketData1764200000001 implements MigrationInterface {
  name = 'MarketData1764200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "odds" ADD "volume" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "volume_24h" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "open_interest" double precision`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "odds" DROP COLUMN "open_interest"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "volume_24h"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "volume"`);
  }
}
