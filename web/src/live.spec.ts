import { describe, expect, it } from '@jest/globals';
import { applyFrame, buildBoard, emptyState, fmtAmerican, fmtLine, stake } from './live.js';

const row = (id: string, book: string, selection: string, decimal: number, over: Record<string, unknown> = {}) => ({
  id,
  sportsbook: book,
  event_id: 'e1',
  event_name: 'A @ B',
  league: 'nba',
  event_start_time: '2026-11-23T01:00:00.000Z',
  is_live: false,
  market_type: 'moneyline',
  period: 'game',
  selection,
  selection_type: selection === 'B' ? 'home' : 'away',
  player_name: null,
  line: null,
  is_main_line: true,
  is_active: true,
  odds_decimal: decimal,
  odds_american: 0,
  ...over,
});

describe('dashboard live state', () => {
  it('follows a stream: snapshot, updates, removals, detections and expiries', () => {
    const s = emptyState();
    applyFrame(s, 'connected', { resumed: false });
    applyFrame(s, 'snapshot', { odds: [row('r1', 'dk', 'B', 1.91), row('r2', 'fd', 'B', 1.95)] });
    applyFrame(s, 'snapshot', { kind: 'arbitrage', opportunities: [{ id: 'a1' }] });
    expect(s.phase).toBe('connecting');
    applyFrame(s, 'snapshot:complete', { status: 'ready' });
    expect(s.phase).toBe('live');
    applyFrame(s, 'odds:update', { odds: [row('r1', 'dk', 'B', 2.0)] });
    expect(s.odds.get('r1')!.odds_decimal).toBe(2.0);
    applyFrame(s, 'odds:removed', { ids: ['r2'] });
    expect([...s.odds.keys()]).toEqual(['r1']);
    // a snapshot opportunity is not "fresh"; one detected live is, until it expires
    applyFrame(s, 'arb:detected', [{ id: 'a1' }, { id: 'a2' }]);
    expect([...s.fresh]).toEqual(['a2']);
    applyFrame(s, 'low_hold:detected', [{ id: 'l1' }]);
    applyFrame(s, 'arb:expired', { expired: ['a1', 'a2'] });
    expect([s.opps.arbitrage.size, s.opps.low_hold.size, s.fresh.has('a2')]).toEqual([0, 1, false]);
    expect(applyFrame(s, 'heartbeat', {})).toBe(false);
    applyFrame(s, 'error', { code: 'backpressure', message: 'too far behind' });
    expect(s.error).toEqual({ code: 'backpressure', message: 'too far behind' });
    // a reconnect without resume starts from an empty state (a fresh snapshot follows)
    applyFrame(s, 'connected', { resumed: false });
    expect([s.odds.size, s.opps.low_hold.size, s.error, s.phase]).toEqual([0, 0, null, 'connecting']);
  });

  it('builds the board from main lines and marks the best active price', () => {
    const odds = [
      row('1', 'dk', 'B', 1.91),
      row('2', 'fd', 'B', 1.95),
      row('3', 'mgm', 'B', 2.1, { is_active: false }), // suspended: never the best
      row('4', 'dk', 'A', 1.91),
      row('5', 'fd', 'A', 1.91),
      row('6', 'dk', 'B', 3.0, { line: -7.5, is_main_line: false, market_type: 'point_spread' }), // alternate line: left out
    ];
    const b = buildBoard(odds, null);
    expect(b.books).toEqual(['dk', 'fd', 'mgm']);
    expect(b.events).toHaveLength(1);
    const [a, home] = b.events[0]!.rows;
    expect([a!.selection, [...a!.best]]).toEqual(['A', []]); // every book ties: nothing marked
    expect([home!.selection, [...home!.best]]).toEqual(['B', ['fd']]);
    expect(buildBoard(odds, 'other').events).toEqual([]);
  });

  it('formats prices, lines and stakes', () => {
    expect([fmtAmerican(105), fmtAmerican(-110), fmtAmerican(null)]).toEqual(['+105', '-110', '']);
    expect([fmtLine(3.5), fmtLine(-7), fmtLine(null)]).toEqual(['+3.5', '-7', '']);
    // 100 x 49.6314% = 49.63
    expect(stake(100, 49.6314)).toBe(49.63);
  });
});
