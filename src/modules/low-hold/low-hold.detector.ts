import { Injectable } from '@nestjs/common';
import type { FeatureDef } from '../../common/auth/access-policy.js';
import { shortHash } from '../../domain/normalise.js';
import type { OddsRow } from '../../domain/odds-row.js';
import type { Detector, Json, PresentView, Reads, StreamNames } from '../detection/detector.js';
import { bestOf, groupInfo, guardsOf, impliedTotalAllBooks, isAlternate, usable, type DetectContext } from '../detection/group-info.js';
import type { BookFilter } from '../detection/market-groups.js';
import { LowHoldPresenter } from './low-hold.presenter.js';
import type { LowHoldRecord } from './low-hold.record.js';

/** Markets whose best prices hold at most this percent are low-hold. */
export const LOW_HOLD_MAX = 5;

const lowHoldIds = new WeakMap<OddsRow, string>();

/** The id of a group's low-hold item (kept with a row of the group; a change replaces the row object). */
function lowHoldId(first: OddsRow): string {
  let id = lowHoldIds.get(first);
  if (id === undefined) lowHoldIds.set(first, (id = shortHash(['lh', first.groupKey])));
  return id;
}

/** The hold of a group's best prices among the books in scope, when at most LOW_HOLD_MAX percent. */
export function detectLowHold(ctx: DetectContext, groupKey: string, inScope: BookFilter): LowHoldRecord | null {
  const g = groupInfo(ctx, groupKey);
  if (!g) return null;
  const best = bestOf(g, usable(ctx, g, inScope));
  if (!best) return null;
  const implied = best.legs.map((l) => 1 / l.decimal);
  const sum = implied.reduce((s, p) => s + p, 0);
  const hold = (sum - 1) * 100;
  if (hold > LOW_HOLD_MAX) return null;
  return {
    kind: 'low_hold',
    id: lowHoldId(g.first),
    source: groupKey,
    eventId: g.first.eventId,
    marketType: g.first.marketType,
    detectedAt: ctx.now,
    updatedAt: ctx.now,
    sides: best.legs.map((row, i) => ({
      row,
      books: [...new Set(best.tied[i]!.map((t) => t.sportsbook))].sort(),
      fairProbability: implied[i]! / sum,
    })),
    line: g.first.groupLine,
    holdPercent: hold,
    allBooks: [...best.books].sort(),
    isAlternateLine: isAlternate(ctx.board, g.first),
    guards: guardsOf(g, best.legs),
  };
}

/**
 * Low-hold as an opportunity type: read on every closed market group, evaluated in each tier's default book
 * set, streamed as `low_hold:detected` / `low_hold:expired`.
 */
@Injectable()
export class LowHoldDetector implements Detector<LowHoldRecord> {
  readonly kind = 'low_hold';
  readonly reads: Reads = 'n_way';
  readonly perScope = true;
  readonly feature: FeatureDef = { name: 'low_hold', label: 'Low-hold opportunities', title: 'Low-hold', fromTier: 'hobby' };
  readonly stream: StreamNames = {
    channel: 'low_hold',
    type: 'low_hold',
    detected: 'low_hold:detected',
    expired: 'low_hold:expired',
    expiredAt: false,
  };
  readonly gauge = { name: 'opportunities_low_hold', help: 'Live low-hold markets (all books)' };

  constructor(private readonly presenter: LowHoldPresenter) {}

  /** A hold above the ceiling among all books is above it among any fewer: most groups stop here. */
  mayFind(ctx: DetectContext, source: string): boolean {
    const implied = impliedTotalAllBooks(ctx, source);
    return implied !== null && (implied - 1) * 100 <= LOW_HOLD_MAX;
  }

  detect(ctx: DetectContext, source: string, inScope: BookFilter): LowHoldRecord[] {
    const h = detectLowHold(ctx, source, inScope);
    return h ? [h] : [];
  }

  present(record: LowHoldRecord, view: PresentView): Json {
    return this.presenter.present(view.board, record, view.now);
  }

  rows(record: LowHoldRecord): readonly OddsRow[] {
    return record.sides.map((s) => s.row);
  }

  signature(record: LowHoldRecord): unknown {
    return record.sides.map((s) => [s.row.decimal, s.books]);
  }
}
