import 'reflect-metadata';
import { runCli, UsageError, USAGE } from './cli/commands.js';
import { ConfigError, loadConfig, type AppConfig } from './config/env.js';
import { packageVersion } from './config/paths.js';

let config: AppConfig;
try {
  config = loadConfig(process.env, packageVersion());
} catch (err) {
  console.error(`configuration error: ${(err as Error).message}`);
  process.exit(2);
}
runCli(process.argv.slice(2), config).then(
  (code) => process.exit(code ?? 0),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (err instanceof ConfigError) console.error(`configuration error: ${err.message}`);
    else console.error(`error: ${(err as Error).message}`);
    process.exit(1);
  },
);
