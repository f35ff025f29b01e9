import { v5 as uuidv5 } from 'uuid';

/** The namespace of event UUIDs (a fixed random UUID of this service). */
export const EVENT_UUID_NAMESPACE = '6f1d3c2e-8a4b-4f7e-9c51-2d0b7e93a4c8';

const cache = new Map<string, string>();

/**
 * A stable UUID for an event (the public Odds item's `event_uuid`, for joins across feeds): the name-based UUID (RFC 4122
 * version 5) of the canonical event id, so every instance, every restart and every response give the same one.
 */
export function eventUuid(eventId: string): string {
  let u = cache.get(eventId);
  if (u === undefined) {
    u = uuidv5(eventId, EVENT_UUID_NAMESPACE);
    if (cache.size > 50_000) cache.clear();
    cache.set(eventId, u);
  }
  return u;
}
