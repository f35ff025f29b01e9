import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.js';
import { createDataSource, runMigrations, storeKind } from './data-source.js';

/** Provides the TypeORM DataSource, initialised and migrated before anything else starts. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const logger = new Logger('database');
        const ds = createDataSource(config);
        const started = performance.now();
        await ds.initialize();
        const applied = await runMigrations(ds);
        logger.log({
          msg: 'database ready',
          store: storeKind(config),
          location: config.databaseUrl ? 'DATABASE_URL' : config.embeddedInMemory ? 'memory' : `${config.dataDir}/pglite`,
          migrations_applied: applied,
          ms: Math.round(performance.now() - started),
        });
        return ds;
      },
    },
  ],
  exports: [DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy().catch(() => undefined);
  }
}
