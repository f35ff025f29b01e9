import type { SplitsInput } from '../../domain/types.js';

/**
 * What ingestion publishes on the event bus for the modules downstream of it. Ingestion knows none of its
 * readers: the splits module subscribes to SPLITS_TOPIC (prices go to the board, which publishes its own topic).
 */
export const SPLITS_TOPIC = 'splits';

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
