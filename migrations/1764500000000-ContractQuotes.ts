import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exchange and prediction-market quotes: the best bid, best ask and last trade (contract price 0-1) on odds rows and
 * futures prices; volume and open interest on futures prices too.
 */
export class ContractQuotes1764500000000 implements MigrationInterface {
  name = 'ContractQuotes1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "odds" ADD "bid" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "ask" double precision`);
    await q.query(`ALTER TABLE "odds" ADD "last_price" double precision`);
    await q.query(`ALTER TABLE "futures_prices" ADD "bid" double precision`);
    await q.query(`ALTER TABLE "futures_prices" ADD "ask" double precision`);
    await q.query(`ALTER TABLE "futures_prices" ADD "last_price" double precision`);
    await q.query(`ALTER TABLE "futures_prices" ADD "volume" double precision`);
    await q.query(`ALTER TABLE "futures_prices" ADD "open_interest" double precision`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "open_interest"`);
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "volume"`);
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "last_price"`);
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "ask"`);
    await q.query(`ALTER TABLE "futures_prices" DROP COLUMN "bid"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "last_price"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "ask"`);
    await q.query(`ALTER TABLE "odds" DROP COLUMN "bid"`);
  }
}
