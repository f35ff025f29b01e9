import { describe, expect, it } from '@jest/globals';
import type { BoardEvent, ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { CLOSING_MAX_AGE_MS, closingCaptures, startedCaptures, type BoardBefore } from './closing-capture.js';

const T = Date.parse('2026-11-22T20:00:00Z');
const event = (id: string, status: BoardEvent['status']): BoardEvent => ({
  id,
  sport: 'basketball',
  league: 'nba',
  homeTeam: 'H',
  awayTeam: 'A',
  homeKey: 'h',
  awayKey: 'a',
  startTime: T,
  status,
  externalIds: {},
  gameState: null,
  firstSeenAt: T,
  updatedAt: T,
  endedAt: null,
});
/** A price set 10 minutes before the start and last confirmed a minute before it (unless `extra` says otherwise). */
const row = (id: string, eventId: string, book: string, isLive: boolean, american: number, extra: Partial<OddsRow> = {}): OddsRow =>
  ({
    id,
    eventId,
    sportsbook: book,
    isLive,
    isActive: true,
    changedAt: T - 600_000,
    lastSeenAt: T - 60_000,
    ...extra,
    american,
    decimal: american > 0 ? 1 + american / 100 : 1 + 100 / -american,
    marketType: 'moneyline',
    period: 'game',
    groupKey: `${eventId}|ml`,
    selectionType: 'home',
  }) as OddsRow;

function board(rows: OddsRow[], events: BoardEvent[]): BoardBefore {
  return {
    events: new Map(events.map((e) => [e.id, e])),
    eventRows: (eventId) => rows.filter((r) => r.eventId === eventId),
    seenAt: (r) => r.lastSeenAt,
  };
}
const cs = (upserted: OddsRow[], events: BoardEvent[] = [], at = T): ChangeSet => ({
  version: 1,
  at,
  upserted,
  removed: [],
  events,
  eventsRemoved: [],
  seen: [],
});

describe('closingCaptures', () => {
  const before = board(
    [row('p1', 'e', 'pinnacle', false, -125), row('d1', 'e', 'draftkings', false, 120), row('x1', 'other', 'pinnacle', false, -110)],
    [event('e', 'upcoming'), event('other', 'upcoming')],
  );

  it("captures a book's pre-game rows when it first quotes the event live", () => {
    const done = new Set<string>();
    const caps = closingCaptures(before, cs([row('p1', 'e', 'pinnacle', true, -200)]), done);
    expect(caps.map((c) => [c.event.id, c.sportsbook, c.rows.map((r) => r.american)])).toEqual([['e', 'pinnacle', [-125]]]);
    expect([...done]).toEqual(['e|pinnacle']);
    // Once only.
    expect(closingCaptures(before, cs([row('p1', 'e', 'pinnacle', true, -300)]), done)).toEqual([]);
  });

  it('captures every book when the event goes live', () => {
    const done = new Set<string>(['e|pinnacle']);
    const caps = closingCaptures(before, cs([], [event('e', 'live')]), done);
    expect(caps.map((c) => c.sportsbook)).toEqual(['draftkings']);
    expect(done.has('e|draftkings')).toBe(true);
  });

  it('ignores pre-game changes and books without pre-game prices', () => {
    expect(closingCaptures(before, cs([row('d1', 'e', 'draftkings', false, 125)], [], T - 1), new Set())).toEqual([]);
    const done = new Set<string>();
    expect(closingCaptures(before, cs([row('f1', 'e', 'fanduel', true, -150)]), done)).toEqual([]);
    expect(done.has('e|fanduel')).toBe(true);
  });
});

describe('startedCaptures', () => {
  it('closes games past their start that no book quoted live, once per book', () => {
    const b = board(
      [row('p1', 'e', 'pinnacle', false, -125), row('d1', 'e', 'draftkings', false, 120), row('l1', 'later', 'pinnacle', false, -110)],
      [event('e', 'upcoming'), { ...event('later', 'upcoming'), startTime: T + 3600_000 }],
    );
    const done = new Set<string>(['e|draftkings']);
    expect(startedCaptures(b, T - 1, done)).toEqual([]); // not started yet
    const caps = startedCaptures(b, T + 60_000, done);
    expect(caps.map((c) => [c.event.id, c.sportsbook])).toEqual([['e', 'pinnacle']]);
    expect(startedCaptures(b, T + 120_000, done)).toEqual([]);
    expect(
      startedCaptures(board([row('p1', 'e', 'pinnacle', false, -125)], [event('e', 'upcoming')]), T + 7 * 3600_000, new Set()),
    ).toEqual([]); // too old
  });
});

describe('what a closing line may hold', () => {
  const MIN = 60_000;
  it('is 30 minutes: a price last confirmed more than 30 minutes before the start is not a close', () => {
    expect(CLOSING_MAX_AGE_MS).toBe(30 * MIN);
    // Start T, captured 15 s after it: the close is the start, so a price last confirmed at T - 30 min is still
    // fresh (30 min old) and one confirmed at T - 30 min - 1 ms is stale; the hours-old price is dropped too.
    const b = board(
      [
        row('p1', 'e', 'pinnacle', false, -125, { lastSeenAt: T - 30 * MIN }),
        row('p2', 'e', 'pinnacle', false, 105, { lastSeenAt: T - 30 * MIN - 1 }),
        row('d1', 'e', 'draftkings', false, 120, { changedAt: T - 5 * 3600_000, lastSeenAt: T - 4 * 3600_000 }),
      ],
      [event('e', 'upcoming')],
    );
    const caps = startedCaptures(b, T + 15_000, new Set());
    expect(caps.map((c) => [c.sportsbook, c.rows.map((r) => r.id)])).toEqual([['pinnacle', ['p1']]]);
  });

  it('measures the age from the capture when the book goes live before the start', () => {
    // Live at T - 20 min: a price confirmed at T - 55 min is 35 minutes old at the close (stale); one at T - 45 min is 25 (fresh).
    const b = board(
      [
        row('p1', 'e', 'pinnacle', false, -125, { lastSeenAt: T - 45 * MIN, changedAt: T - 50 * MIN }),
        row('p2', 'e', 'pinnacle', false, 105, { lastSeenAt: T - 55 * MIN, changedAt: T - 60 * MIN }),
      ],
      [event('e', 'upcoming')],
    );
    const caps = closingCaptures(b, cs([row('p1', 'e', 'pinnacle', true, -200)], [], T - 20 * MIN), new Set());
    expect(caps.map((c) => c.rows.map((r) => r.id))).toEqual([['p1']]);
  });

  it('leaves suspended prices out (and a book with only suspended prices has no close)', () => {
    const b = board(
      [
        row('p1', 'e', 'pinnacle', false, -125),
        row('p2', 'e', 'pinnacle', false, 105, { isActive: false }),
        row('d1', 'e', 'draftkings', false, 120, { isActive: false }),
      ],
      [event('e', 'upcoming')],
    );
    const done = new Set<string>();
    const caps = startedCaptures(b, T + 15_000, done);
    expect(caps.map((c) => [c.sportsbook, c.rows.map((r) => r.id)])).toEqual([['pinnacle', ['p1']]]);
    expect(done.has('e|draftkings')).toBe(true);
    const live = closingCaptures(b, cs([], [event('e', 'live')]), new Set());
    expect(live.map((c) => [c.sportsbook, c.rows.map((r) => r.id)])).toEqual([['pinnacle', ['p1']]]);
  });

  it('never takes a price changed after the start from a book that does not quote live', () => {
    // A feed without a live flag moved p2 five seconds after the start: an in-play price, not the close.
    const b = board(
      [row('p1', 'e', 'pinnacle', false, -125), row('p2', 'e', 'pinnacle', false, 300, { changedAt: T + 5_000, lastSeenAt: T + 5_000 })],
      [event('e', 'upcoming')],
    );
    expect(startedCaptures(b, T + 15_000, new Set()).map((c) => c.rows.map((r) => r.id))).toEqual([['p1']]);
    // The event going live on another feed's word: the same rule for the books that did not say so themselves.
    expect(closingCaptures(b, cs([], [event('e', 'live')], T + 10_000), new Set()).map((c) => c.rows.map((r) => r.id))).toEqual([['p1']]);
    // A book that quotes live itself tells its pre-game rows apart: a pre-game price it moved after the nominal start
    // (a late start) is its close.
    const own = closingCaptures(b, cs([row('p1', 'e', 'pinnacle', true, -300)], [], T + 20_000), new Set());
    expect(own.map((c) => c.rows.map((r) => r.id).sort())).toEqual([['p1', 'p2']]);
  });

  it('captures the pre-start prices when a feed without a live flag first moves a price after the start', () => {
    const b = board([row('p1', 'e', 'pinnacle', false, -125), row('p2', 'e', 'pinnacle', false, 105)], [event('e', 'upcoming')]);
    const done = new Set<string>();
    // T + 5 s: Pinnacle's pre-game row moves to -300 (in play); the board still holds -125, the close.
    const caps = closingCaptures(b, cs([row('p1', 'e', 'pinnacle', false, -300, { changedAt: T + 5_000 })], [], T + 5_000), done);
    expect(caps.map((c) => [c.sportsbook, c.rows.map((r) => r.american)])).toEqual([['pinnacle', [-125, 105]]]);
    expect(done.has('e|pinnacle')).toBe(true);
    // Before the start, a pre-game move is only a move.
    expect(closingCaptures(b, cs([row('p1', 'e', 'pinnacle', false, -130)], [], T - 1), new Set())).toEqual([]);
  });

  it('closes at the start the change set brings when it moves the start', () => {
    const b = board([row('p1', 'e', 'pinnacle', false, -125)], [event('e', 'upcoming')]);
    const delayed = { ...event('e', 'upcoming'), startTime: T + 3600_000 };
    // T + 5 s, the start moved to T + 1 h in the same change set: nothing closes yet.
    expect(
      closingCaptures(b, cs([row('p1', 'e', 'pinnacle', false, -130, { changedAt: T + 5_000 })], [delayed], T + 5_000), new Set()),
    ).toEqual([]);
    const moved = board([row('p1', 'e', 'pinnacle', false, -130, { changedAt: T + 5_000, lastSeenAt: T + 3000_000 })], [delayed]);
    expect(startedCaptures(moved, T + 15_000, new Set())).toEqual([]);
    const caps = startedCaptures(moved, T + 3600_000 + 15_000, new Set());
    expect(caps.map((c) => [c.event.startTime, c.rows.map((r) => r.american)])).toEqual([[T + 3600_000, [-130]]]);
  });
});
