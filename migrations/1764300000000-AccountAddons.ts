import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Add-ons an account holds on top of its tier (`game_state`): none for every existing account. */
export class AccountAddons1764300000000 implements MigrationInterface {
  name = 'AccountAddons1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "accounts" ADD "addons" text array NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "accounts" DROP COLUMN "addons"`);
  }
}
