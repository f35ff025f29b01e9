// The service as the benchmarks start it in-process: embedded store in memory, no providers, no schedulers,
// warnings only, one sharp key. `env` adds to or overrides that; `writes: false` keeps prices from queueing for
// the database (for benchmarks that measure memory-side work only, so the writer's buffer does not grow).
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../src/app.factory.js';
import type { AppModuleOptions } from '../src/app.module.js';
import { loadConfig } from '../src/config/env.js';
import { BoardService } from '../src/modules/board/board.service.js';

export async function benchApp(
  env: Record<string, string> = {},
  opts: { writes?: boolean } & AppModuleOptions = {},
): Promise<NestFastifyApplication> {
  const { writes = true, ...options } = opts;
  const config = loadConfig(
    {
      PROVIDERS: 'none',
      SCHEDULERS: 'false',
      LOG_LEVEL: 'warn',
      EMBEDDED_IN_MEMORY: 'true',
      API_KEYS: 'sharp:sk_bench_sharp_0001',
      ...env,
    },
    'bench',
  );
  const app = await createApp(config, options);
  if (!writes) (app.get(BoardService).writer as unknown as { enqueue: () => void }).enqueue = () => undefined;
  return app;
}
