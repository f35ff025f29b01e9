import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Catalog } from '../../../config/catalog.js';
import { MarketSimulator } from './simulator.js';

/**
 * A fingerprint of the market the simulator produces for a fixed seed, start and poll times: every batch
 * (quotes, removals, event updates, splits) hashed in order. Any change to the sequence of random draws or to
 * the pricing changes it. Refactors of the simulator must keep it; a deliberate change to the model updates it.
 */
const START = Date.UTC(2025, 10, 15, 19, 0);
const SEC = 1000;

function digest(seed: number): { sha: string; batches: number; quotes: number } {
  const sim = new MarketSimulator(new Catalog(), { seed, events: 30, days: 2, tickMs: SEC, start: START });
  const hash = createHash('sha256');
  let quotes = 0;
  let batches = 0;
  const add = (b: unknown): void => {
    const s = JSON.stringify(b);
    hash.update(s);
    batches += 1;
    quotes += (b as { quotes: unknown[] }).quotes.length;
  };
  add(sim.start(START));
  // 2 minutes of one-second ticks, then 4 simulated hours in one-minute ticks (kick-offs, games, finals, listings).
  let t = START;
  for (let i = 0; i < 120; i += 1) add(sim.poll((t += SEC)));
  for (let i = 0; i < 240; i += 1) add(sim.poll((t += 60 * SEC)));
  return { sha: hash.digest('hex'), batches, quotes };
}

describe('MarketSimulator digest', () => {
  it('produces the recorded market for seed 20251115', () => {
    // Re-recorded once when exchange and prediction rows gained volume / open interest and live games began
    // reporting their state every 5 s: the same batches and quotes, the same draws (ea4b33c9... before). Re-recorded
    // when hockey books without alternate rungs stopped quoting the alternate puck lines (ca9af659..., 347056 quotes before). Re-recorded when
    // player props began naming the player's team (playerTeam): the same batches, quotes and draws (18122954... before).
    expect(digest(20251115)).toEqual({
      sha: '96aadb83db1e1bd799d22c75c8a5f595f343fac3afb712a3fcfae1ce43dd3ca3',
      batches: 361,
      quotes: 345459,
    });
  });
});
