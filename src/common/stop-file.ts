import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * A JSON file written at a clean stop and read once by the next start (the board's prices, the live
 * opportunities). It is written whole or not at all (a stop cut short leaves no half-written file to read), and
 * in ASCII, any other character escaped (`\u00e9`): a start reads ASCII as one-byte text, where a single `é`
 * makes the whole file's text two-byte, which takes about twice as long to decode and to parse.
 */
export function writeStopFile(path: string, value: unknown): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, asciiJson(JSON.stringify(value)));
  renameSync(tmp, path);
}

/**
 * Reads and removes the file (and what a stop cut short while writing it left beside it): its parsed value,
 * `missing` when there is none, `not JSON` when it does not parse.
 */
export function takeStopFile(path: string): { value: unknown } | { missing: true } | { invalid: 'not JSON' } {
  const file = takeStopBytes(path);
  if (!file) return { missing: true };
  const value = parseJson(file);
  return value === undefined ? { invalid: 'not JSON' } : { value };
}

/** Writes bytes whole or not at all, as writeStopFile writes its JSON. */
export function writeStopBytes(path: string, chunks: readonly Uint8Array[]): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, Buffer.concat(chunks));
  renameSync(tmp, path);
}

/** Reads and removes the file (and what a stop cut short while writing it left beside it); null when there is none. */
export function takeStopBytes(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  } finally {
    rmSync(path, { force: true });
    rmSync(`${path}.tmp`, { force: true });
  }
}

/** The JSON value of bytes (ASCII read as one-byte text, anything else as UTF-8); undefined when they do not parse. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(isAscii(bytes) ? 'latin1' : 'utf8'),
    ) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON text with every character outside ASCII written as its `\u` escape (the same JSON value). */
export function asciiJson(json: string): string {
  return /[\u0080-\uffff]/.test(json)
    ? json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}
