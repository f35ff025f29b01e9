import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import { startTestApp } from '../support/test-app.js';

/**
 * Every shell example of README.md and docs/*.md, run against a fresh start of the service.
 *
 * A block runs when its fence says `sh` or `bash`. The one way out is an HTML comment on the line before the fence,
 * `<!-- no-ci: why -->`, for what CI cannot do (the server's own start, docker, a browser); those are listed in the
 * test's output and their number is capped.
 *
 * The service is started as `npm start` starts it (`node scripts/dist.mjs main`), on a new DATA_DIR, port 0 (the
 * port is read from DATA_DIR/server.json), no API_KEYS: the demo keys are created as on a first start. In services
 * mode it uses a schema and Redis prefix of its own. Each block runs alone under `bash` with `set -euo pipefail`,
 * in the repository's root, with the variables the README's first example sets: PORT, DATA_DIR (and the
 * services-mode DATABASE_URL, DATABASE_SCHEMA, REDIS_URL, REDIS_PREFIX), API, KEY (the enterprise demo key) and H.
 * Blocks run in document order, after /health says ok.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_NO_CI = 8;
/** Per block: a CLI call may rebuild dist/ first when a source changed since the last build. */
const BLOCK_TIMEOUT_MS = 180_000;

interface Block {
  file: string;
  line: number;
  code: string;
  noCi: string | null;
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(ROOT, 'docs', f));
  return [join(ROOT, 'README.md'), ...docs];
}

/** The fenced shell blocks of a Markdown file, with the `no-ci` comment before each, if any. */
function shellBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const lang = open[3]!.toLowerCase();
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
    if (lang === 'sh' || lang === 'bash' || lang === 'shell') {
      let prev = i - 1;
      while (prev >= 0 && lines[prev]!.trim() === '') prev--;
      const marker = prev >= 0 ? /^<!--\s*no-ci:\s*(.*?)\s*-->$/.exec(lines[prev]!.trim()) : null;
      blocks.push({ file: relative(ROOT, file), line: i + 1, code: lines.slice(i + 1, end).join('\n'), noCi: marker ? marker[1]! : null });
    }
    i = end;
  }
  return blocks;
}

const blocks = markdownFiles().flatMap((f) => shellBlocks(f, readFileSync(f, 'utf8')));
const runnable = blocks.filter((b) => b.noCi === null);
const skipped = blocks.filter((b) => b.noCi !== null);

const SERVICES = Boolean(process.env.TEST_DATABASE_URL);
const id = `docs${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'odds-docs-'));
const storeEnv: Record<string, string> = SERVICES
  ? {
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      DATABASE_SCHEMA: id,
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `${id}:` } : {}),
    }
  : {};
/** This shell's environment without the service's settings, so a developer's own (API_KEYS, DATABASE_URL, ...) never leak in. */
const SETTINGS =
  /^(PORT|HOST|ROLE|DATA_DIR|DATABASE_URL|DATABASE_SCHEMA|EMBEDDED_IN_MEMORY|REDIS_URL|REDIS_PREFIX|API_KEYS|ADMIN_TOKEN|PROVIDERS|SCHEDULERS|LOG_LEVEL|SIMULATOR_\w+|ODDS_API_\w+|API|KEY|H|npm_config_loglevel)$/;
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SETTINGS.test(k)));
let server: ChildProcess | null = null;
let serverLog = '';
let env: Record<string, string> = {};

async function waitFor<T>(what: string, probe: () => Promise<T | null> | T | null, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (server?.exitCode !== null) throw new Error(`the server exited (${server?.exitCode}) while waiting for ${what}:\n${serverLog}`);
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${serverLog.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function run(code: string): { status: number | null; out: string } {
  const r = spawnSync('bash', ['-c', `set -euo pipefail\n${code}`], {
    cwd: ROOT,
    env: { ...baseEnv, ...env },
    encoding: 'utf8',
    timeout: BLOCK_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}${r.error ? `\n${r.error.message}` : ''}` };
}

describe('the shell examples of the README and docs/', () => {
  beforeAll(async () => {
    for (const tool of ['bash', 'curl', 'jq'])
      expect({ tool, found: spawnSync('which', [tool]).status === 0 }).toEqual({ tool, found: true });
    server = spawn(process.execPath, ['scripts/dist.mjs', 'main'], {
      cwd: ROOT,
      env: { ...baseEnv, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...storeEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      serverLog = (serverLog + chunk.toString()).slice(-20_000);
    };
    server.stdout!.on('data', keep);
    server.stderr!.on('data', keep);

    const info = await waitFor(
      'DATA_DIR/server.json',
      () =>
        existsSync(join(dataDir, 'server.json'))
          ? (JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { port: number })
          : null,
      240_000,
    );
    const api = `http://localhost:${info.port}/api/v1`;
    await waitFor(
      '/health ok',
      async () => {
        const r = await fetch(`${api}/health`).catch(() => null);
        return r && ((await r.json()) as { status: string }).status === 'ok' ? true : null;
      },
      120_000,
    );
    const key = /^enterprise\t(\S+)$/m.exec(readFileSync(join(dataDir, 'demo-keys.txt'), 'utf8'))![1]!;
    env = { ...storeEnv, PORT: String(info.port), DATA_DIR: dataDir, API: api, KEY: key, H: `X-API-Key: ${key}` };
  }, 400_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server?.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (SERVICES) {
      const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
      try {
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${id}" CASCADE`);
      } catch {
        /* a schema left behind is harmless */
      } finally {
        await c.end().catch(() => undefined);
      }
    }
  }, 60_000);

  it('finds the examples (README under 250 lines), and only a few are kept out of CI, each with its reason', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(250);
    expect(runnable.length).toBeGreaterThanOrEqual(15);
    console.log(
      `${runnable.length} shell examples run; ${skipped.length} not run in CI:\n${skipped.map((b) => `  ${b.file}:${b.line}: ${b.noCi}`).join('\n')}`,
    );
    for (const b of skipped)
      expect({ where: `${b.file}:${b.line}`, reason: b.noCi!.length > 10 }).toEqual({ where: `${b.file}:${b.line}`, reason: true });
    expect(skipped.length).toBeLessThanOrEqual(MAX_NO_CI);
    // The base URL comes from $API (or $PORT), never a fixed port a developer's own server might answer on.
    expect(runnable.filter((b) => /localhost:3000|127\.0\.0\.1:3000/.test(b.code)).map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it('the server `npm start` runs (the bundle, when built) serves the API document the sources describe', async () => {
    // The bundle renames what collides and keeps each class's name (esbuild's keepNames): a DTO or controller
    // known by another name would change the document's schemas and operations.
    const served = (await (await fetch(`http://localhost:${env.PORT}/docs-json`)).json()) as Record<string, unknown>;
    const t = await startTestApp();
    try {
      const own = (await (await fetch(`${t.url}/docs-json`)).json()) as Record<string, unknown>;
      expect(Object.keys((served.components as { schemas: object }).schemas).length).toBeGreaterThan(50);
      // The test configuration's version and address are its own.
      const comparable = (d: Record<string, unknown>) => ({ ...d, servers: null, info: { ...(d.info as object), version: null } });
      expect(comparable(served)).toEqual(comparable(own));
    } finally {
      await t.close();
    }
  });

  it.each(runnable.map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s runs',
    (_where, b) => {
      const r = run(b.code);
      expect({ exit: r.status, out: r.status === 0 ? '' : r.out.slice(-3000) }).toEqual({ exit: 0, out: '' });
    },
    BLOCK_TIMEOUT_MS + 5000,
  );
});
