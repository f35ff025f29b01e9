import 'reflect-metadata';
import { parseArgs as nodeParseArgs } from 'node:util';
import { readLiveServer, type ServerInfo } from '../common/admin/admin-token.js';
import { SystemClock } from '../common/time/clock.js';
import { dict } from '../domain/dict.js';
import type { AppConfig } from '../config/env.js';
import type { AccountAddons, ApiKeysService, KeyView } from '../modules/accounts/api-keys.service.js';

// The store, the accounts service and the importers load only when a command needs them: a call that goes
// through a running server (the usual case with the embedded store) loads none of them.
const store = () => import('../database/data-source.js');

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  keys:create --tier <free|hobby|pro|sharp|enterprise> [--name NAME]   create an account with its first key; prints the
                                                                       key alone on the last line
  keys:create --account <ACCOUNT_ID> [--name NAME]                     another key for an existing account (within its
                                                                       key limit; the key has the account's tier)
  keys:list                                                            list keys and their accounts (never the keys themselves)
  keys:revoke <KEY_ID>                                                 revoke a key
  keys:arbitrage <KEY_ID> <on|off>                                     switch the arbitrage feature of the key's account
  accounts:max-keys <ACCOUNT_ID> <N|default>                           keys the account may hold (default: its tier's)
  accounts:addon <ACCOUNT_ID> <ADDON> <on|off>                         give the account an add-on or take it away
                                                                       (game_state: game state below the enterprise tier)
  import <FILE> [--replay] [--source NAME] [--dry-run] [--format csv|json] [--server URL] [--rejections PATH]
                                                                       import a sample CSV or an Odds API v4 JSON file as source
                                                                       NAME (default: the file name); importing a source again
                                                                       replaces what it brought (same file twice: same board);
                                                                       events that had started before now come in as ended;
                                                                       --replay shifts its times so its capture time is now;
                                                                       --dry-run reports what would change and writes nothing;
                                                                       every rejected row is reported with its line and reason
                                                                       (the first 50 here; all of them in PATH, else
                                                                       DATA_DIR/imports/SOURCE.rejected.csv, else ./SOURCE.rejected.csv).
                                                                       Exit 0: all imported; 1: partial import (imported, some rows
                                                                       rejected); 2: nothing imported (empty, unreadable, wrong
                                                                       header, all rejected)
  import:remove <SOURCE>                                               withdraw every price the import SOURCE brought
  migration:run                                                        apply pending database migrations
  backtest (--simulate DAYS | --file PATH) [--min-ev PCT] [--devig METHOD] [--books A,B] [--flat UNITS | --kelly FRACTION
           [--cap FRACTION]] [--delay SECONDS] [--bankroll UNITS] [--seed N] [--events N] [--step SECONDS] [--out DIR]
                                                                       replay simulated days (e.g. 7d) or an imported file through
                                                                       the +EV detector, bet by the rule, grade at the results and
                                                                       report (docs/backtest.md); writes report.html, bets.csv and
                                                                       report.json in DIR (default: a new directory under DATA_DIR
                                                                       when set, else the working directory)

The CLI uses the same environment as the server (DATABASE_URL or DATA_DIR). With the embedded store, while a
server is running on the same DATA_DIR, the CLI goes through that server (the embedded database allows one process).`;

export class UsageError extends Error {}

type OptionSpec = { type: 'string' | 'boolean' };

/** What each command accepts: its flags (a string flag takes a value) and how many positional words (at least, at most). */
export interface CommandSpec {
  options: Record<string, OptionSpec>;
  positionals: [number, number];
}

export const COMMANDS: Record<string, CommandSpec> = dict<CommandSpec>({
  'keys:create': { options: { tier: { type: 'string' }, account: { type: 'string' }, name: { type: 'string' } }, positionals: [0, 0] },
  'keys:list': { options: {}, positionals: [0, 0] },
  'keys:revoke': { options: {}, positionals: [1, 1] },
  'keys:arbitrage': { options: {}, positionals: [2, 2] },
  'accounts:max-keys': { options: {}, positionals: [2, 2] },
  'accounts:addon': { options: {}, positionals: [3, 3] },
  import: {
    options: {
      replay: { type: 'boolean' },
      source: { type: 'string' },
      'dry-run': { type: 'boolean' },
      format: { type: 'string' },
      server: { type: 'string' },
      rejections: { type: 'string' },
    },
    positionals: [1, 1],
  },
  'import:remove': { options: {}, positionals: [1, 1] },
  'migration:run': { options: {}, positionals: [0, 0] },
  backtest: {
    options: {
      simulate: { type: 'string' },
      file: { type: 'string' },
      'min-ev': { type: 'string' },
      devig: { type: 'string' },
      books: { type: 'string' },
      flat: { type: 'string' },
      kelly: { type: 'string' },
      cap: { type: 'string' },
      delay: { type: 'string' },
      bankroll: { type: 'string' },
      seed: { type: 'string' },
      events: { type: 'string' },
      step: { type: 'string' },
      out: { type: 'string' },
    },
    positionals: [0, 0],
  },
  help: { options: {}, positionals: [0, 0] },
});

interface Parsed {
  command: string;
  positional: string[];
  flags: Record<string, string | boolean | undefined>;
}

/**
 * The command line, read strictly with node:util's parseArgs against the command's own flags: an unknown flag,
 * a flag that takes a value given none (or a switch given one), and more words than the command takes are
 * usage errors (exit code 2), so a typo never runs a command with its default.
 */
export function parseCommandLine(argv: string[]): Parsed {
  const [first = 'help', ...rest] = argv;
  const command = first === '--help' || first === '-h' ? 'help' : first;
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) throw new UsageError(`unknown command "${command}"`);
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = nodeParseArgs({ args: rest, options: spec.options, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (err) {
    const known = Object.keys(spec.options).map((o) => `--${o}`);
    throw new UsageError(`${command}: ${(err as Error).message} (its options: ${known.length ? known.join(', ') : 'none'})`);
  }
  const max = spec.positionals[1];
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals.slice(max).map((p) => `"${p}"`);
    throw new UsageError(
      `${command} takes ${max === 0 ? 'no' : `at most ${max}`} argument${max === 1 ? '' : 's'}; unexpected: ${extra.join(' ')}`,
    );
  }
  return { command, positional: parsed.positionals, flags: { ...parsed.values } };
}

export async function admin(server: ServerInfo, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`http://${server.host}:${server.port}/api/v1/admin${path}`, {
    method,
    headers: { 'X-Admin-Token': server.admin_token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data?: unknown; error?: { message: string } };
  if (!res.ok) throw new Error(json.error?.message ?? `server answered ${res.status}`);
  return json.data;
}

function printKeys(keys: KeyView[]): void {
  const rows = keys.map((k) => [
    k.id,
    k.account_id,
    k.tier,
    k.revoked_at ? 'revoked' : !k.is_active ? 'expired' : k.expires_at ? `expires ${k.expires_at}` : 'active',
    k.arbitrage_enabled ? 'arb:on' : 'arb:off',
    k.name ?? '',
    k.key_prefix + '…',
    k.last_used_at ?? 'never',
  ]);
  const header = ['ID', 'ACCOUNT', 'TIER', 'STATUS', 'ARB', 'NAME', 'PREFIX', 'LAST USED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

/** Runs `fn` against the store directly (no server holds it). */
async function withStore<T>(config: AppConfig, fn: (keys: ApiKeysService) => Promise<T>): Promise<T> {
  const [{ createDataSource, runMigrations }, { ApiKeysRepository }, { ApiKeysService }] = await Promise.all([
    store(),
    import('../modules/accounts/api-keys.repository.js'),
    import('../modules/accounts/api-keys.service.js'),
  ]);
  const ds = createDataSource(config);
  await ds.initialize();
  try {
    await runMigrations(ds);
    return await fn(new ApiKeysService(new ApiKeysRepository(ds), new SystemClock(), config));
  } finally {
    await ds.destroy();
  }
}

/** What a command works with: its words and flags, the configuration, the running server holding the store (or null). */
interface CommandContext {
  positional: string[];
  flags: Parsed['flags'];
  config: AppConfig;
  server: ServerInfo | null;
}

/** Resolves with the process exit code (nothing: 0). */
type Command = (c: CommandContext) => Promise<number | void>;

/** Runs one command; resolves with the process exit code (0 unless the command says otherwise, e.g. import). */
export async function runCli(argv: string[], config: AppConfig): Promise<number | void> {
  const { command, positional, flags } = parseCommandLine(argv);
  const run = Object.hasOwn(RUNS, command) ? RUNS[command] : undefined;
  if (!run) throw new UsageError(`unknown command "${command}"`);
  const server = config.databaseUrl ? null : readLiveServer(config.dataDir);
  return run({ positional, flags, config, server });
}

/** keys:create: a new account with its first key (--tier), or another key of an account (--account). */
async function createKey({ flags, config, server }: CommandContext): Promise<void> {
  const tier = flags['tier'];
  const account = flags['account'];
  if (typeof tier !== 'string' && typeof account !== 'string')
    throw new UsageError('keys:create needs --tier (a new account) or --account (an existing one)');
  if (typeof tier === 'string' && typeof account === 'string')
    throw new UsageError("keys:create takes --tier or --account, not both (a key has its account's tier)");
  const nameFlag = flags['name'];
  const name = typeof nameFlag === 'string' ? nameFlag : null;
  const body = typeof account === 'string' ? { account_id: account } : { tier };
  const created = server
    ? ((await admin(server, 'POST', '/keys', { ...body, ...(name ? { name } : {}) })) as KeyView & { key: string })
    : await withStore(config, async (keys) => {
        const r = typeof account === 'string' ? await keys.createForAccount(account, name, 'cli') : await keys.create(tier as string, name);
        return { ...r.view, key: r.key };
      });
  console.log(
    `created key ${created.id} of account ${created.account_id} (tier ${created.tier}${created.name ? `, name ${created.name}` : ''}); it is shown only once:`,
  );
  console.log(created.key);
}

/** keys:list */
async function listKeys({ config, server }: CommandContext): Promise<void> {
  const keys = server ? ((await admin(server, 'GET', '/keys')) as KeyView[]) : await withStore(config, (k) => k.list());
  printKeys(keys);
}

/** keys:revoke <KEY_ID> */
async function revokeKey({ positional, config, server }: CommandContext): Promise<void> {
  const id = positional[0];
  if (!id) throw new UsageError('keys:revoke needs a key id (see keys:list)');
  const v = server
    ? ((await admin(server, 'POST', `/keys/${encodeURIComponent(id)}/revoke`)) as KeyView)
    : await withStore(config, (k) => k.revoke(id));
  if (!v) throw new Error(`no API key with id ${id}`);
  console.log(`revoked ${v.id}`);
}

/** keys:arbitrage <KEY_ID> <on|off> */
async function switchArbitrage({ positional, config, server }: CommandContext): Promise<void> {
  const [id, state] = positional;
  if (!id || (state !== 'on' && state !== 'off')) throw new UsageError('keys:arbitrage needs a key id and on|off');
  const enabled = state === 'on';
  const v = server
    ? ((await admin(server, 'POST', `/keys/${encodeURIComponent(id)}/arbitrage`, { enabled })) as KeyView)
    : await withStore(config, (k) => k.setArbitrage(id, enabled));
  if (!v) throw new Error(`no API key with id ${id}`);
  console.log(`arbitrage ${enabled ? 'enabled' : 'disabled'} for ${v.id}`);
}

/** accounts:max-keys <ACCOUNT_ID> <N|default> */
async function setMaxKeys({ positional, config, server }: CommandContext): Promise<void> {
  const [id, value] = positional;
  const n = value === 'default' ? null : Number(value);
  if (!id || (n !== null && (!Number.isInteger(n) || n < 1 || n > 10_000)))
    throw new UsageError('accounts:max-keys needs an account id and a number from 1 to 10000, or default');
  const v = server
    ? ((await admin(server, 'POST', `/accounts/${encodeURIComponent(id)}/max-keys`, { max_keys: n })) as {
        account_id: string;
        max_keys: number;
      })
    : await withStore(config, (k) => k.setMaxKeys(id, n));
  if (!v) throw new Error(`no account with id ${id}`);
  console.log(`account ${v.account_id} may hold ${v.max_keys} key${v.max_keys === 1 ? '' : 's'}`);
}

/** accounts:addon <ACCOUNT_ID> <ADDON> <on|off> */
async function switchAddon({ positional, config, server }: CommandContext): Promise<void> {
  const [id, addon, state] = positional;
  if (!id || !addon || (state !== 'on' && state !== 'off'))
    throw new UsageError('accounts:addon needs an account id, an add-on (game_state) and on|off');
  const enabled = state === 'on';
  const v = server
    ? ((await admin(server, 'POST', `/accounts/${encodeURIComponent(id)}/addons`, { addon, enabled })) as AccountAddons)
    : await withStore(config, (k) => k.setAddon(id, addon, enabled));
  if (!v) throw new Error(`no account with id ${id}`);
  console.log(`account ${v.account_id} ${enabled ? 'holds' : 'no longer holds'} ${addon}; add-ons: ${v.addons.join(', ') || 'none'}`);
}

/** import <FILE> [...]: exits with the import's code (IMPORT_EXIT). */
async function importFile({ positional, flags, config, server }: CommandContext): Promise<number> {
  const file = positional[0];
  if (!file) throw new UsageError('import needs a file');
  const format = flags['format'];
  if (format !== undefined && format !== 'csv' && format !== 'json') throw new UsageError('--format must be csv or json');
  const target = importTarget(flags['server'], config, server);
  const rejections = flags['rejections'];
  const source = flags['source'];
  if (source !== undefined && (typeof source !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(source)))
    throw new UsageError('--source must be 1-64 letters, digits, dots, dashes or underscores');
  const { runImport } = await import('./import.js');
  const summary = await runImport(file, config, {
    replay: flags.replay === true,
    format: format as 'csv' | 'json' | undefined,
    server: target,
    admin,
    rejectionsFile: typeof rejections === 'string' ? rejections : undefined,
    source: source as string | undefined,
    dryRun: flags['dry-run'] === true,
  });
  return summary.exitCode;
}

/** The server an import goes through: `--server URL` (with ADMIN_TOKEN), else the one holding the store, if any. */
function importTarget(serverFlag: string | boolean | undefined, config: AppConfig, server: ServerInfo | null): ServerInfo | null {
  if (typeof serverFlag !== 'string') return server;
  const u = new URL(serverFlag);
  if (!config.adminToken) throw new UsageError("--server needs ADMIN_TOKEN (the remote server's operator token)");
  return { pid: 0, host: u.hostname, port: Number(u.port || 80), admin_token: config.adminToken, started_at: '' };
}

/** import:remove <SOURCE> */
async function removeImportedSource({ positional, config, server }: CommandContext): Promise<void> {
  const source = positional[0];
  if (!source) throw new UsageError('import:remove needs the source name of an import (shown by import; default: the file name)');
  const { removeImport } = await import('./import.js');
  await removeImport(source, config, { server, admin });
}

/** migration:run (a running server applied them at its start). */
async function runMigrationsNow({ config, server }: CommandContext): Promise<void> {
  if (server) {
    console.log(`a server (pid ${server.pid}) holds this store and applied migrations at its start`);
    return;
  }
  const { createDataSource, runMigrations } = await store();
  const ds = createDataSource(config);
  await ds.initialize();
  try {
    const applied = await runMigrations(ds);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
  } finally {
    await ds.destroy();
  }
}

/** backtest: the engine and its report load only for this command. */
async function runBacktestNow({ flags, config }: CommandContext): Promise<number> {
  const { runBacktestCommand, BacktestUsageError } = await import('./backtest.js');
  try {
    return await runBacktestCommand(flags, config);
  } catch (err) {
    if (err instanceof BacktestUsageError) throw new UsageError(`backtest: ${err.message}`);
    throw err;
  }
}

/** Each command's run, by name (the names COMMANDS lists). */
const RUNS: Record<string, Command> = dict<Command>({
  'keys:create': createKey,
  'keys:list': listKeys,
  'keys:revoke': revokeKey,
  'keys:arbitrage': switchArbitrage,
  'accounts:max-keys': setMaxKeys,
  'accounts:addon': switchAddon,
  import: importFile,
  'import:remove': removeImportedSource,
  'migration:run': runMigrationsNow,
  backtest: runBacktestNow,
  help: async () => console.log(USAGE),
});
