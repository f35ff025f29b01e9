import { Injectable } from '@nestjs/common';
import type { FeatureDef } from '../../common/auth/access-policy.js';
import { shortHash } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import { DEVIG_METHODS, devig, marketWidth, type DevigMethod } from '../../math/index.js';
import type { Detector, Json, PresentView, Reads, StreamNames } from '../detection/detector.js';
import { groupInfo, guardsOf, isAlternate, type DetectContext } from '../detection/group-info.js';
import type { ConsensusGap } from '../detection/guards.js';
import { EvPresenter } from './ev.presenter.js';
import type { EvRecord } from './ev.record.js';

/** Sharp reference books for devigging, in order of preference. */
export const SHARP_REFERENCE_BOOKS = ['pinnacle', 'circa', 'bookmaker'] as const;

const evIds = new WeakMap<OddsRow, string>();

/** The id of a +EV item on a price: its group, outcome and book (kept with the row object, which a change replaces). */
export function evId(r: OddsRow): string {
  let id = evIds.get(r);
  if (id === undefined) evIds.set(r, (id = shortHash(['ev', r.groupKey, r.selectionType, r.sportsbook])));
  return id;
}

/**
 * +EV prices of a group: the sharp reference book's complete market is devigged (every method), and every
 * other book's active price above the fair value by any method is an opportunity (one per book and side).
 * A flagged sharp market is never devigged (the next sharp book that quotes the whole market is used), and
 * flagged venues' prices are candidates only when flagged markets are let in.
 */
export function detectEv(ctx: DetectContext, groupKey: string, sharpBook?: string): EvRecord[] {
  const g = groupInfo(ctx, groupKey);
  if (!g) return [];
  let ref: { book: string; legs: OddsRow[] } | null = null;
  let sharpRefCount = 0;
  // A book's complete market (its best active price on every outcome, as bestPerOutcome among its rows alone);
  // a flagged venue market or an unverified book is never a reference.
  const completeOf = (book: string): OddsRow[] | null => (g.flags.has(book) || g.unverified.has(book) ? null : g.byBook.complete(book));
  for (const book of SHARP_REFERENCE_BOOKS) {
    const legs = completeOf(book);
    if (!legs) continue;
    sharpRefCount++;
    if (!ref && !sharpBook) ref = { book, legs };
  }
  if (sharpBook) {
    const legs = completeOf(sharpBook);
    ref = legs ? { book: sharpBook, legs } : null;
  }
  if (!ref) return [];
  const implied = ref.legs.map((l) => 1 / l.decimal);
  const sum = implied.reduce((s, p) => s + p, 0);
  if (sum <= 1) return [];
  const fairBy = {} as Record<DevigMethod, number[]>;
  for (const m of DEVIG_METHODS) fairBy[m] = devig(implied, m);
  // The highest fair probability of each outcome by any method: a price is above fair value by some method
  // exactly when it is above this one (rounding is monotonic), so each price needs one product, not one per method.
  const maxFair: number[] = [];
  for (let i = 0; i < g.outcomes.length; i++) {
    let f = Number.NEGATIVE_INFINITY;
    for (const m of DEVIG_METHODS) f = Math.max(f, fairBy[m][i]!);
    maxFair.push(f);
  }
  const out: EvRecord[] = [];
  // Computed once, on the first price above fair value (most groups have none).
  let shared: { width: number | null; isMain: boolean; refGap: ConsensusGap[] } | null = null;
  const letIn = ctx.includeFlagged || !g.flags.size;
  for (let i = 0; i < g.outcomes.length; i++) {
    const rows = g.byOutcome[i]!;
    let bookCount = -1;
    for (const r of rows) {
      if (r.sportsbook === ref.book || (!letIn && g.flags.has(r.sportsbook))) continue;
      if (maxFair[i]! * r.decimal - 1 <= 0) continue;
      const fair = {} as Record<DevigMethod, number>;
      for (const m of DEVIG_METHODS) fair[m] = fairBy[m][i]!;
      if (bookCount < 0) {
        const books = new Set<string>();
        for (const q of rows) if (letIn || !g.flags.has(q.sportsbook)) books.add(q.sportsbook);
        bookCount = books.size;
      }
      shared ??= {
        width: ref.legs.length === 2 ? marketWidth(ref.legs[0]!.american, ref.legs[1]!.american) : null,
        isMain: !isAlternate(ctx.board, g.first),
        refGap: guardsOf(g, ref.legs).offConsensus,
      };
      const own = guardsOf(g, [r]);
      out.push({
        kind: 'ev',
        id: evId(r),
        source: groupKey,
        eventId: r.eventId,
        marketType: r.marketType,
        detectedAt: ctx.now,
        updatedAt: ctx.now,
        row: r,
        line: r.line,
        sharpBook: ref.book,
        sharpRows: ref.legs,
        fair,
        bookCount,
        sharpRefCount,
        sharpHoldPercent: (sum - 1) * 100,
        marketWidth: shared.width,
        isMainLine: shared.isMain,
        guards: { flagged: own.flagged, offConsensus: [...own.offConsensus, ...shared.refGap], unverified: own.unverified },
      });
    }
  }
  return out;
}

/**
 * +EV as an opportunity type: read on every closed market group, evaluated once over every book (each item is
 * one book's price; a caller's books filter the list), streamed as `ev:detected` / `ev:expired`.
 */
@Injectable()
export class EvDetector implements Detector<EvRecord> {
  readonly kind = 'ev';
  readonly reads: Reads = 'n_way';
  readonly perScope = false;
  readonly feature: FeatureDef = { name: 'ev', label: '+EV opportunities', title: '+EV', fromTier: 'pro' };
  readonly stream: StreamNames = {
    channel: 'ev',
    type: 'ev',
    detected: 'ev:detected',
    expired: 'ev:expired',
    expiredAt: true,
    threshold: { param: 'min_ev', value: (item) => Number(item.ev_percentage) },
  };
  readonly gauge = { name: 'opportunities_ev', help: 'Live +EV items' };

  constructor(private readonly presenter: EvPresenter) {}

  detect(ctx: DetectContext, source: string): EvRecord[] {
    return detectEv(ctx, source);
  }

  /** The stream's item: devigged with the default method (power). */
  present(record: EvRecord, view: PresentView): Json {
    return this.presenter.present(view.board, record, 'power', view.now);
  }

  rows(record: EvRecord): readonly OddsRow[] {
    return [record.row];
  }

  signature(record: EvRecord): unknown {
    return [record.row.decimal, record.fair.power];
  }
}
