import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from '../../src/database/data-source.js';
import { testConfig } from '../support/test-app.js';

describe('migrations', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = createDataSource(testConfig());
    await ds.initialize();
  });
  afterAll(async () => {
    const schema = (ds.options as { schema?: string }).schema;
    if (schema && schema !== 'public') await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await ds.destroy();
  });

  it('apply cleanly and a second run is a no-op', async () => {
    const first = await runMigrations(ds);
    expect(first.length).toBe(ds.migrations.length);
    expect(await runMigrations(ds)).toEqual([]);
    expect(await ds.showMigrations()).toBe(false);
  });

  it('match the entities exactly (an entity change without a migration fails here)', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });
});
