import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/env.js';
import { COMMANDS, parseCommandLine, runCli, UsageError } from './commands.js';

const usage = (argv: string[]) => {
  try {
    parseCommandLine(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
};

describe('CLI arguments: strict, per command', () => {
  it('import: a flag before the file does not swallow it; a typo of a flag is refused (no real import runs)', () => {
    expect(parseCommandLine(['import', '--dry-run', 'f.csv'])).toMatchObject({
      command: 'import',
      positional: ['f.csv'],
      flags: { 'dry-run': true },
    });
    expect(parseCommandLine(['import', 'f.csv', '--dry-run', '--source', 'a.b', '--format=csv'])).toMatchObject({
      positional: ['f.csv'],
      flags: { 'dry-run': true, source: 'a.b', format: 'csv' },
    });
    expect(usage(['import', 'f.csv', '--dryrun'])).toMatch(/--dryrun/);
    expect(usage(['import', 'f.csv', '--source'])).toMatch(/--source/);
    expect(usage(['import', 'f.csv', '--dry-run=yes'])).toMatch(/--dry-run/);
    expect(usage(['import', 'a.csv', 'b.csv'])).toMatch(/b\.csv/);
  });

  it('keys:create: --tier, --account and --name take a value; anything else is refused', () => {
    expect(parseCommandLine(['keys:create', '--tier', 'pro', '--name', 'desk'])).toMatchObject({ flags: { tier: 'pro', name: 'desk' } });
    expect(usage(['keys:create', '--tier', 'pro', '--nme', 'desk'])).toMatch(/--nme/);
    expect(usage(['keys:create', '--tier'])).toMatch(/--tier/);
    expect(usage(['keys:create', '--tier', 'pro', 'extra'])).toMatch(/extra/);
  });

  // Every command: an unknown flag and an extra positional are refused; each flag that takes a value without one too.
  it.each(Object.keys(COMMANDS))('%s: unknown flags, missing values and extra words are usage errors', (command) => {
    const spec = COMMANDS[command]!;
    const args = Array.from({ length: spec.positionals[0] }, (_, i) => `p${i}`);
    expect(usage([command, ...args, '--no-such-flag'])).toMatch(/--no-such-flag/);
    expect(usage([command, ...args, '-x'])).toMatch(/-x/);
    expect(usage([command, ...Array.from({ length: spec.positionals[1] + 1 }, (_, i) => `p${i}`)])).toMatch(/p\d/);
    for (const [name, o] of Object.entries(spec.options))
      if (o.type === 'string') expect(usage([command, ...args, `--${name}`])).toMatch(name);
  });

  it('an unknown command is a usage error; no command is help', () => {
    expect(usage(['kyes:list'])).toMatch(/kyes:list/);
    expect(parseCommandLine([])).toMatchObject({ command: 'help' });
  });

  it('runCli refuses before doing anything (cli.ts exits 2 on a UsageError, after printing it and the usage)', async () => {
    const config = loadConfig({ EMBEDDED_IN_MEMORY: 'true', DATA_DIR: `/tmp/odds-cli-args-${process.pid}` }, 'test');
    await expect(runCli(['import', '/nonexistent/f.csv', '--dryrun'], config)).rejects.toBeInstanceOf(UsageError);
    await expect(runCli(['keys:create', '--tier', 'pro', '--nmae', 'x'], config)).rejects.toThrow(/--nmae/);
  });
});
