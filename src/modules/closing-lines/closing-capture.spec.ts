import { describe, expect, it } from '@jest/globals';
import type { BoardEvent, ChangeSet, OddsRow } from '../../domain/odds-row.js';
import { closingCaptures, startedCaptures, type BoardBefore } from './closing-capture.js';

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
const row = (id: string, eventId: string, book: string, isLive: boolean, american: number): OddsRow =>
  ({
    id,
    eventId,
    sportsbook: book,
    isLive,
    american,
    decimal: american > 0 ? 1 + american / 100 : 1 + 100 / -american,
    marketType: 'moneyline',
    period: 'game',
    groupKey: `${eventId}|ml`,
    selectionType: 'home',
  }) as OddsRow;

function board(rows: OddsRow[], events: BoardEvent[]): BoardBefore {
  const byEvent = new Map<string, Set<string>>();
  for (const r of rows) (byEvent.get(r.eventId) ?? byEvent.set(r.eventId, new Set()).get(r.eventId)!).add(r.id);
  return { rows: new Map(rows.map((r) => [r.id, r])), events: new Map(events.map((e) => [e.id, e])), ids: (_k, key) => byEvent.get(key) };
}
const cs = (upserted: OddsRow[], events: BoardEvent[] = []): ChangeSet => ({
  version: 1,
  at: T,
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
    expect(closingCaptures(before, cs([row('d1', 'e', 'draftkings', false, 125)]), new Set())).toEqual([]);
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
