import type { SplitsInput } from './types.js';

/**
 * Every topic on the event bus, with the payload types that cross module boundaries. A module publishes and
 * subscribes by these names; none imports another module to learn a topic or the shape of its messages.
 */

/** The board's change sets (ChangeSet, src/domain/odds-row.ts): published by the board, read by every reader of prices. */
export const ODDS_TOPIC = 'odds';
/** The futures store's changes (FuturesChange, src/domain/futures.ts), for the other instances. */
export const FUTURES_TOPIC = 'futures';
/** Splits resolved to their events (SplitsMessage), from the splits store to the other instances. */
export const SPLITS_TOPIC = 'splits';
/** Players seen by the intake (PlayerSighting[], src/domain/players.ts), from the players store to the other instances. */
export const PLAYERS_TOPIC = 'players';
/** A key changed (KeyChange): every instance drops its cached key lookups and re-checks its open streams. */
export const KEYS_TOPIC = 'keys';
/** The detection engine's lifecycle changes (OpportunityEvent), delivered locally: every instance detects for itself. */
export const OPPORTUNITIES_TOPIC = 'opportunities';
/** Lifecycle changes the active worker publishes for the replicas (one message per evaluation; detection's wire format). */
export const LIFECYCLE_TOPIC = 'opportunities:lifecycle';
/** A replica asking the active worker for a fresh snapshot of its live opportunities. */
export const RESYNC_REQUEST_TOPIC = 'opportunities:resync';
/** The active worker saying a fresh snapshot is in the store. */
export const SNAPSHOT_READY_TOPIC = 'opportunities:snapshot';
/** Streams displaced by a newer stream of their key on another instance (their holder closes them). */
export const STREAMS_DISPLACED_TOPIC = 'streams:displaced';

/** Splits matched to their canonical event. */
export interface ResolvedSplits extends SplitsInput {
  eventId: string;
  sport: string;
  homeTeamName: string;
  awayTeamName: string;
}

export interface SplitsMessage {
  splits: ResolvedSplits[];
  at: number;
  /** Part of a provider's initial snapshot, already old enough for the delayed (free) view. */
  backfill?: boolean;
}

/** A key changed (revoked, flags, add-ons; keyId null: the keys of an account). */
export interface KeyChange {
  at: number;
  keyId: string | null;
}

/** What an opportunity was about, enough to filter its expiry for a stream after it is gone. */
export interface OpportunityRef {
  id: string;
  eventId: string;
  sport: string;
  league: string;
  marketType: string;
  books: string[];
  /** Whether any price it uses is live. */
  live?: boolean;
}

/** What the detection engine announces (locally) for the stream: a type's lifecycle changes in one scope. */
export interface OpportunityEvent {
  /** Sequence of the change set that caused it (the last one, for re-scan corrections). */
  seq: number;
  /** The Detector's kind. */
  kind: string;
  scope: string;
  at: number;
  detected: OpportunityRef[];
  expired: OpportunityRef[];
  updated: OpportunityRef[];
}
