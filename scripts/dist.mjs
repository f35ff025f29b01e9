// Runs the service from its compiled output, building it only when it is missing or older than the sources.
//
//   node scripts/dist.mjs build          compile (no type check: `npm run typecheck` does that) and seed the
//                                        embedded database template; what `npm ci` runs (the `prepare` script);
//                                        with --check, type-checked too (`npm run build`)
//   node scripts/dist.mjs main           the server (`npm start`): its bundle (dist/bundle/server/main.js), or
//                                        dist/src/main.js where esbuild could not bundle it
//   node scripts/dist.mjs cli ARGS...    the CLI (`npm run cli -- ARGS`)
//   node scripts/dist.mjs bench ARGS...  the benchmarks (`npm run bench -- ARGS`)
//
// "Stale" means a file under src/, migrations/ or bench/, or a tsconfig, changed after the last build
// (dist/.build-stamp); checking takes a few milliseconds, so `npm start` and `npm run cli` compile nothing
// after `npm ci` until a source changes.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');
const SOURCES = ['src', 'migrations', 'bench', 'web'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];
const ENTRIES = { main: 'dist/src/main.js', cli: 'dist/src/cli.js', bench: 'dist/bench/run.js' };
/** The server bundled with its packages (see buildServerBundle): what `npm start` runs when it is there. */
const SERVER_BUNDLE_DIR = join(DIST, 'bundle', 'server');
/** The embedded database, initialised and migrated at build time: a first start copies it instead of running initdb. */
export const TEMPLATE_DIR = join(DIST, 'pglite-template');

function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== 'node_modules' && /\.(ts|tsx|css|html)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of SOURCES) walk(join(ROOT, d));
  for (const f of CONFIGS) if (existsSync(join(ROOT, f))) newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
  return newest;
}

/** Why the compiled output cannot be used as it is, or null when it can. */
export function staleReason() {
  if (!existsSync(STAMP)) return existsSync(DIST) ? 'no record of a complete build' : 'not built yet';
  const built = statSync(STAMP).mtimeMs;
  return newestSource() > built ? 'sources changed since the last build' : null;
}

function pgliteVersion() {
  try {
    const require = createRequire(join(ROOT, 'package.json'));
    const entry = require.resolve('@electric-sql/pglite');
    return JSON.parse(readFileSync(join(entry.slice(0, entry.lastIndexOf('/dist/')), 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Compiles src/, migrations/ and bench/ into dist/ (no type check). Exits the process on a compile error. */
export function build(reason, { check = false } = {}) {
  let tsc;
  try {
    tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    if (existsSync(join(ROOT, ENTRIES.main))) return false;
    process.stderr.write('dist/ is missing and TypeScript is not installed: run `npm ci` (with dev dependencies) first.\n');
    process.exit(1);
  }
  if (!existsSync(join(ROOT, 'src'))) return false;
  const started = Date.now();
  process.stderr.write(`building dist/ (${reason})...\n`);
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), ...(check ? [] : ['--noCheck'])], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    process.stderr.write('the build failed (see above)\n');
    process.exit(r.status ?? 1);
  }
  buildWeb();
  buildServerBundle();
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
  // The stamp carries the time the build started: a source saved during the build makes the next run rebuild.
  utimesSync(STAMP, new Date(started), new Date(started));
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

function hasEsbuild() {
  try {
    createRequire(join(ROOT, 'package.json')).resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

/** Bundles the dashboard (web/ -> dist/web) with esbuild, a dev dependency: without it the page answers 503. */
function buildWeb() {
  if (!existsSync(join(ROOT, 'web'))) return;
  if (!hasEsbuild()) {
    process.stderr.write('esbuild is not installed: the dashboard is not bundled (install the dev dependencies to build it)\n');
    return;
  }
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write('the dashboard build failed (see above)\n');
    process.exit(r.status ?? 1);
  }
}

/**
 * Bundles the compiled server into dist/bundle/server (scripts/bundle-server.mjs), which `npm start` runs: it
 * loads in a fraction of the time. Without esbuild, or when bundling fails, the server runs from dist/src.
 */
function buildServerBundle() {
  rmSync(SERVER_BUNDLE_DIR, { recursive: true, force: true });
  if (!hasEsbuild()) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle-server.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    rmSync(SERVER_BUNDLE_DIR, { recursive: true, force: true });
    process.stderr.write('note: the server could not be bundled (see above); `npm start` runs dist/src/main.js instead\n');
  }
}

/** Creates the migrated embedded database template (dist/pglite-template), unless it is there for this PGlite. */
function seedTemplate() {
  const version = pgliteVersion();
  if (!version || !existsSync(join(ROOT, ENTRIES.cli))) return;
  const marker = join(TEMPLATE_DIR, 'PGLITE_VERSION');
  const migrations = readdirSync(join(ROOT, 'migrations'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .join(',');
  const want = `${version}\n${migrations}\n`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  const work = join(DIST, '.pglite-template-work');
  rmSync(work, { recursive: true, force: true });
  rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [join(ROOT, ENTRIES.cli), 'migration:run'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: work, DATABASE_URL: '', REDIS_URL: '', API_KEYS: '', PROVIDERS: 'none', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0 || !existsSync(join(work, 'pglite', 'PG_VERSION'))) {
    process.stderr.write('note: could not prepare the embedded database template; the first start will initialise the database itself\n');
    rmSync(work, { recursive: true, force: true });
    return;
  }
  cpSync(join(work, 'pglite'), TEMPLATE_DIR, { recursive: true });
  writeFileSync(marker, want);
  rmSync(work, { recursive: true, force: true });
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'build') {
  const check = process.argv.includes('--check');
  build(check ? 'npm run build: compile and type-check' : 'npm ci / npm install', { check });
  seedTemplate();
  process.exit(0);
}
const entry = ENTRIES[command];
if (!entry) {
  process.stderr.write(`usage: node scripts/dist.mjs build|main|cli|bench [args...]\n`);
  process.exit(2);
}
const reason = staleReason();
if (reason) build(reason);
const file = command === 'main' && existsSync(join(SERVER_BUNDLE_DIR, 'main.js')) ? join(SERVER_BUNDLE_DIR, 'main.js') : join(ROOT, entry);
// The entry sees its own arguments where it expects them (process.argv.slice(2)).
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(file).href);
