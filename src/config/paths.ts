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
