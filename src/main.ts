// Only the configuration loader and the early server are imported statically: the port opens within
// milliseconds of the process starting, and the application (its modules, about half a second to load from the
// bundle, then the database and the stored board) is loaded behind it. See EarlyServer.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fullGc } from './common/full-gc.js';
import { EarlyServer } from './common/http/early-server.js';
import { checkServerConfig, ConfigError, loadConfig, type AppConfig } from './config/env.js';
import { packageVersion } from './config/paths.js';

function localUrl(config: AppConfig, port: number): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host}:${port}`;
}

/** The sharp demo key from DATA_DIR/demo-keys.txt (it sees every book and opportunity), for the hint line. */
function demoKey(config: AppConfig, created: { lines: string[] } | null): string | null {
  let lines = created?.lines;
  const file = join(config.dataDir, 'demo-keys.txt');
  if (!lines && existsSync(file)) lines = readFileSync(file, 'utf8').split('\n');
  const line = lines?.find((l) => l.startsWith('sharp\t'));
  return line ? (line.split('\t')[1] ?? null) : null;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  let config: AppConfig;
  try {
    config = loadConfig(process.env, packageVersion());
    checkServerConfig(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const early = new EarlyServer(config.version, config.docsUrl);
  await early.listen(config.port, config.host);

  await import('reflect-metadata');
  const [{ Logger }, { createApp }, admin, { IngestionService }, { ApiKeysService }, { HealthService }, { BoardService }, { Serving }] =
    await Promise.all([
      import('@nestjs/common'),
      import('./app.factory.js'),
      import('./common/admin/admin-token.js'),
      import('./modules/ingestion/ingestion.service.js'),
      import('./modules/accounts/api-keys.service.js'),
      import('./modules/health/health.service.js'),
      import('./modules/board/board.service.js'),
      import('./common/serving.js'),
    ]);
  const logger = new Logger('main');
  early.phase = 'opening the database and loading the stored board';
  const app = await createApp(config, {}, { serverFactory: early.factory, holdProviders: true });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);

  // Until a market is on the board, health says so (degraded, check `startup`). A restart serves the board it
  // stored at once, while the providers catch up (the `data` check says how fresh it is). A replica (an api
  // instance, a standby worker) is ready once it has caught up with the active worker's board.
  let loadedIn: number | null = null;
  const boards = app.get(BoardService);
  app.get(HealthService).addCheck('startup', () => {
    if (!boards.caughtUp) return { status: 'degraded', message: `catching up with the active worker (${boards.board.size} prices so far)` };
    if (loadedIn !== null) return { status: 'ok', message: `initial market loaded ${(loadedIn / 1000).toFixed(1)} s after start` };
    if (boards.stored.events > 0)
      return {
        status: 'ok',
        message: `serving the stored board (${boards.stored.rows} prices in ${boards.stored.events} events) while the providers catch up`,
      };
    return { status: 'degraded', message: 'starting: loading the initial market' };
  });
  void app
    .get(IngestionService)
    .initialLoad()
    .then(() => {
      loadedIn = performance.now() - startedAt;
      // About half the heap is the load's garbage by now: collected at once (about 0.1 s, once) rather than a
      // minute or two later, it is not resident meanwhile (about 100-150 MB less in the first minutes).
      const gcMs = fullGc();
      logger.log({ msg: 'initial market loaded', ms: Math.round(loadedIn), gc_ms: Math.round(gcMs) });
      // From here on the heap grows by at most this share past what is live (the start, which allocates in a burst, keeps V8's sizing).
      if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
    });

  await app.listen(config.port, config.host);
  // The providers (the simulator catching up to now, its first snapshot) start once the stored board is served, and
  // the opportunities a restart read from its last stop are re-checked then.
  app.get(Serving).begin();
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  admin.writeServerInfo(config.dataDir, {
    pid: process.pid,
    port,
    host: config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host,
    admin_token: app.get(admin.AdminToken).value,
    started_at: new Date().toISOString(),
  });
  process.once('exit', () => admin.removeServerInfo(config.dataDir, process.pid));
  logger.log({
    msg: 'listening',
    url: `${localUrl(config, port)}/api/v1`,
    role: config.role,
    docs: '/docs',
    ms: Math.round(performance.now() - startedAt),
  });

  // Printed once the application answers, so the first request with one of these keys works.
  const created = app.get(ApiKeysService).demoKeys;
  if (created) process.stdout.write(`\nDemo API keys (also in ${created.file}):\n${created.lines.map((l) => `  ${l}`).join('\n')}\n`);
  const base = localUrl(config, port);
  const key = demoKey(config, created);
  process.stdout.write(
    `\nReady: dashboard ${base}/ · Swagger UI ${base}/docs · try: curl -H "X-API-Key: ${key ?? '$KEY'}" "${base}/api/v1/events?live=false&limit=3"${loadedIn === null && boards.stored.events === 0 ? ' (the market is loading: /api/v1/health says ok once it is in)' : ''}\n\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', time: new Date().toISOString(), msg: 'start-up failed', err: err instanceof Error ? err.stack : String(err) })}\n`,
  );
  process.exit(1);
});
