import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory.js';
import { AdminToken, removeServerInfo, writeServerInfo } from './common/admin/admin-token.js';
import { ConfigError, loadConfig } from './config/env.js';
import { packageVersion } from './config/paths.js';
import { IngestionService } from './modules/ingestion/ingestion.service.js';

const INITIAL_LOAD_WAIT_MS = 20_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env, packageVersion());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await createApp(config);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  // Open the port once the initial market is on the board (a few seconds), so the first reader sees prices.
  const loaded = await Promise.race([
    app.get(IngestionService).initialLoad().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), INITIAL_LOAD_WAIT_MS).unref()),
  ]);
  if (!loaded) new Logger('main').warn({ msg: 'initial market still loading; opening the port anyway', waited_ms: INITIAL_LOAD_WAIT_MS });
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  writeServerInfo(config.dataDir, {
    pid: process.pid,
    port,
    host: config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host,
    admin_token: app.get(AdminToken).value,
    started_at: new Date().toISOString(),
  });
  process.once('exit', () => removeServerInfo(config.dataDir, process.pid));
  new Logger('main').log({ msg: 'listening', url: `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}/api/v1`, role: config.role, docs: '/docs' });
}

main().catch((err: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), msg: 'start-up failed', err: err instanceof Error ? err.stack : String(err) })}\n`);
  process.exit(1);
});
