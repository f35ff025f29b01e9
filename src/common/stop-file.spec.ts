import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { asciiJson, takeStopFile, writeStopFile } from './stop-file.js';

describe('a file written at a clean stop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stop-file-'));

  it.each([
    ['plain ASCII', '{"a":"b"}'],
    ['a two-byte character', '{"a":"é"}'],
    ['a surrogate pair', '["🙂", "x🙂y"]'],
    ['an escape already there', '"\\u00e9 é"'],
  ])('asciiJson keeps the JSON value (%s)', (_what, json) => {
    const out = asciiJson(json);
    expect(/[\u0080-\uffff]/.test(out)).toBe(false);
    expect(JSON.parse(out)).toEqual(JSON.parse(json));
  });

  it('is written in ASCII, read back as the same value, and read once (with what a cut-short write left)', () => {
    const path = join(dir, 'a.json');
    const value = { names: ['Kiké Hernández', 'Fan 🙂 Club', 'tab\there'], n: [1.5, -2, null] };
    writeStopFile(path, value);
    expect(readFileSync(path).every((b) => b < 0x80)).toBe(true);
    writeFileSync(`${path}.tmp`, '{"half');
    expect(takeStopFile(path)).toEqual({ value });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(takeStopFile(path)).toEqual({ missing: true });
  });

  it('reads a file in UTF-8 too, and says when a file is not JSON (removing it)', () => {
    const path = join(dir, 'b.json');
    writeFileSync(path, JSON.stringify({ a: 'Žan €' }), 'utf8');
    expect(takeStopFile(path)).toEqual({ value: { a: 'Žan €' } });
    writeFileSync(path, '{"a": ');
    expect(takeStopFile(path)).toEqual({ invalid: 'not JSON' });
    expect(existsSync(path)).toBe(false);
  });
});
