import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Market data on odds rows: exchange and prediction-market volume, volume in the last 24 hours and open interest;
 * baseball's starting pitchers as the source names them.
 */
export class MarketData1764200000001 implements MigrationInterface {
  name = 'MarketData1764200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "odds" ADD "volume" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "volume_24h" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "open_interest" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "home_pitcher" text`);
    await q.query(`ALTER TABLE "odds" ADD "away_pitcher" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "odds" DROP COLUMN "away_pitcher"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "home_pitcher"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "open_interest"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "volume_24h"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "volume"`);
  }
}
