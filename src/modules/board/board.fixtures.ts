import type { BoardEvent, ChangeSet, OddsRow, RemovedRow } from '../../domain/odds-row.js';

/** Plain board values for the board's unit tests (no pipeline, no catalog). */
export const T0 = Date.parse('2026-11-22T12:00:00Z');

export function boardEvent(id: string, patch: Partial<BoardEvent> = {}): BoardEvent {
  return {
    id,
    sport: 'basketball',
    league: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    homeKey: 'boston_celtics',
    awayKey: 'los_angeles_lakers',
    startTime: T0 + 3_600_000,
    status: 'upcoming',
    externalIds: {},
    gameState: null,
    firstSeenAt: T0,
    updatedAt: T0,
    endedAt: null,
    ...patch,
  };
}

export function oddsRow(id: string, patch: Partial<OddsRow> = {}): OddsRow {
  const eventId = patch.eventId ?? 'ev1';
  const book = patch.sportsbook ?? 'draftkings';
  return {
    id,
    sportsbook: book,
    eventId,
    sport: 'basketball',
    league: 'nba',
    marketType: 'moneyline',
    period: 'full',
    ladderKey: `${eventId}|moneyline|full`,
    groupKey: `${eventId}|moneyline|full|${book}`,
    groupLine: null,
    selection: 'Boston Celtics',
    selectionType: 'home',
    line: null,
    playerName: null,
    statCategory: null,
    american: -110,
    decimal: 1.909091,
    probability: 0.52381,
    isLive: false,
    isActive: true,
    changedAt: T0,
    oddsChangedAt: T0,
    lastSeenAt: T0,
    externalEventId: null,
    marketId: null,
    selectionId: null,
    maxBet: null,
    ...patch,
  };
}

export function removal(r: OddsRow, removedAt: number): RemovedRow {
  return { id: r.id, sportsbook: r.sportsbook, eventId: r.eventId, removedAt };
}

export function changeSet(version: number, at: number, patch: Partial<ChangeSet> = {}): ChangeSet {
  return { version, at, upserted: [], removed: [], events: [], eventsRemoved: [], seen: [], ...patch };
}
