import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The project root: the nearest folder above this file holding package.json (works from src/ and dist/src/). */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'config'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (package.json and config/)');
    dir = up;
  }
}

export function readJson<T>(...parts: string[]): T {
  return JSON.parse(readFileSync(join(projectRoot(), ...parts), 'utf8')) as T;
}

export function packageVersion(): string {
  return readJson<{ version: string }>('package.json').version;
}

let build: string | undefined;

/**
 * This build: the package version and the time `npm run build` made dist/ (dist/.build-stamp); the version alone
 * when run from the sources (tests). What a stop stores for the next start in a build's own shapes is read only by
 * the same build.
 */
export function buildId(): string {
  if (build !== undefined) return build;
  let stamp = '';
  try {
    stamp = readFileSync(join(projectRoot(), 'dist', '.build-stamp'), 'utf8').trim();
  } catch {
    // Not built: run from the sources.
  }
  return (build = stamp ? `${packageVersion()}+${stamp}` : packageVersion());
}
