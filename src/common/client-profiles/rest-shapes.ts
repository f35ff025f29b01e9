import { SetMetadata } from '@nestjs/common';
import type { ClientProfile } from './profiles.js';

/**
 * The REST shapes that differ by client profile. A route that has one is marked `@ClientShape(name)`; its handler
 * returns the neutral form below, and ClientProfileInterceptor renders it for the request's profile. Routes
 * without a mark answer the same to every client.
 */

/** One market type priced for an event, as the routes that list an event's markets know it. */
export interface MarketSummary {
  market_type: string;
  market_label: string;
  /** Distinct selections (selection and line) quoted by any book. */
  selection_count: number;
  book_count: number;
  /** The books quoting it, sorted. */
  books: string[];
}

type Envelope = { data?: unknown; [k: string]: unknown };
type Shape = (body: Envelope) => Envelope;

const withData = (body: Envelope, data: unknown): Envelope => ({ ...body, data });

/** A map of key -> list, flattened in key order (the order the map was built in). */
const flatten = (map: unknown): unknown[] =>
  map && typeof map === 'object' && !Array.isArray(map) ? Object.values(map as Record<string, unknown[]>).flat() : [];

export const SHAPES = {
  /**
   * `GET /events/{id}/markets`: the handler returns MarketSummary[]. The spec answers the market ids (string[]);
   * the Python client validates each item as a Market object, so it gets the summaries.
   */
  eventMarkets: {
    spec: (b) =>
      withData(
        b,
        (b.data as MarketSummary[]).map((m) => m.market_type),
      ),
    python: (b) => b,
  },
  /**
   * `GET /odds/comparison` (book -> Odds[]) and `POST /odds/batch` (event id -> Odds[]): the spec answers the map;
   * the Python client validates `data` as a list of odds rows, so it gets the rows flattened in the map's order.
   */
  oddsByKey: {
    spec: (b) => b,
    python: (b) => withData(b, flatten(b.data)),
  },
} satisfies Record<string, Partial<Record<ClientProfile, Shape>> & { spec: Shape }>;

export type ShapeName = keyof typeof SHAPES;

export const CLIENT_SHAPE = 'client-profiles:shape';

/** Marks a route whose answer differs by client profile (see SHAPES). */
export const ClientShape = (name: ShapeName) => SetMetadata(CLIENT_SHAPE, name);

/** Renders a marked route's answer for a profile; profiles without a shape of their own get the spec's. */
export function renderShape(name: ShapeName, profile: ClientProfile, body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const shapes: Partial<Record<ClientProfile, Shape>> & { spec: Shape } = SHAPES[name];
  return (shapes[profile] ?? shapes.spec)(body as Envelope);
}
