import { existsSync, mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { boardEvent, oddsRow } from './board.fixtures.js';
import { BoardCheckpoint } from './board-checkpoint.js';
import type { StoreStamp } from './board.repository.js';

const STAMP: StoreStamp = { through: 1_700_000_000_000, odds: 2, events: 1, migrations: 'A,B' };
/** Rows as the store gives them: every field present, null when it has no value. */
const STORED = {
  bid: null,
  ask: null,
  last: null,
  volume: null,
  volume24h: null,
  openInterest: null,
  homePitcher: null,
  awayPitcher: null,
};
const content = () => ({
  events: [boardEvent('ev1', { gameState: null, externalIds: { draftkings: 'dk-1' } })],
  rows: [oddsRow('a', STORED), oddsRow('b', { ...STORED, sportsbook: 'fanduel', line: -3.5, groupLine: -3.5, volume: 120 })],
});
const fresh = () => new BoardCheckpoint(join(mkdtempSync(join(tmpdir(), 'odds-checkpoint-')), 'board-checkpoint.json'));

describe('BoardCheckpoint', () => {
  it('gives back what was saved, for the same stamp, once: the file goes as it is read', async () => {
    const cp = fresh();
    await cp.save(content(), STAMP);
    const got = await cp.take(async () => ({ ...STAMP }));
    expect(got.reason).toBe('checkpoint');
    expect(got.content).toEqual(content());
    expect(existsSync(cp.path)).toBe(false);
    expect(await cp.take(async () => STAMP)).toEqual({ content: null, reason: 'no checkpoint' });
  });

  it('rows read back share their repeated strings, as rows read from the store do', async () => {
    const cp = fresh();
    await cp.save(content(), STAMP);
    const { content: c } = await cp.take(async () => STAMP);
    // Two rows of one event: the same string object, not two equal copies (what the interner is for).
    expect(c!.rows[0]!.eventId).toBe(c!.rows[1]!.eventId);
  });

  it('is not used, and is removed, when any part of the store stamp moved', async () => {
    for (const moved of [{ through: STAMP.through + 1 }, { odds: 3 }, { events: 0 }, { migrations: 'A,B,C' }]) {
      const cp = fresh();
      await cp.save(content(), STAMP);
      expect(await cp.take(async () => ({ ...STAMP, ...moved }))).toEqual({
        content: null,
        reason: 'the store changed after the checkpoint',
      });
      expect(existsSync(cp.path)).toBe(false);
    }
  });

  it('is not used when it was written by another build, or is not readable', async () => {
    const cp = fresh();
    await cp.save(content(), STAMP);
    const file = JSON.parse(readFileSync(cp.path, 'utf8')) as Record<string, unknown>;
    for (const [patch, reason] of [
      [{ format: 0 }, 'the checkpoint was written by another build'],
      [{ shape: 'id,price|id' }, 'the checkpoint was written by another build'],
      [{ values: {} }, 'the checkpoint is not readable'],
      [{ values: [1, 2, 3] }, 'the checkpoint is not readable'],
      [{ keys: ['id'] }, 'the checkpoint is not readable'],
    ] as const) {
      writeFileSync(cp.path, JSON.stringify({ ...file, ...patch }));
      expect(await cp.take(async () => STAMP)).toEqual({ content: null, reason });
    }
    writeFileSync(cp.path, '{"format":1,"rows":[');
    expect(await cp.take(async () => STAMP)).toEqual({ content: null, reason: 'the checkpoint is not readable' });
    expect(existsSync(cp.path)).toBe(false);
  });
});
