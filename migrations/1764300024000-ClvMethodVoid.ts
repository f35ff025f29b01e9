import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The CLV track record: how each closing probability was found (the close of the bet's own line, or the score model
 * fitted to another closing line, and which), and the void mark of predictions on games postponed or cancelled.
 */
export class ClvMethodVoid1764300024000 implements MigrationInterface {
  name = 'ClvMethodVoid1764300024000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "clv_predictions" ADD "clv_method" text`);
    await q.query(`ALTER TABLE "clv_predictions" ADD "clv_reference_line" double precision`);
    await q.query(`ALTER TABLE "clv_predictions" ADD "void_reason" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "clv_predictions" DROP COLUMN "void_reason"`);
    await q.query(`ALTER TABLE "clv_predictions" DROP COLUMN "clv_reference_line"`);
    await q.query(`ALTER TABLE "clv_predictions" DROP COLUMN "clv_method"`);
  }
}
