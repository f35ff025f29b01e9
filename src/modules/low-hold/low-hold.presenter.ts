import { Injectable } from '@nestjs/common';
import { roundTo } from '../../math/index.js';
import type { OddsBoard } from '../board/odds-board.js';
import type { Json } from '../detection/detector.js';
import { eventBlock, guardWarnings, iso, r4, staleness } from '../opportunity-lists/present.js';
import { RefBlocks } from '../reference/ref-blocks.js';
import { deepLinksOf } from '../deep-links/deep-link-templates.js';
import type { LowHoldRecord } from './low-hold.record.js';

/** Turns low-hold records into the items of `/opportunities/low_hold` and `low_hold:detected`. */
@Injectable()
export class LowHoldPresenter {
  constructor(private readonly refs: RefBlocks) {}

  present(board: OddsBoard, h: LowHoldRecord, now: number): Json {
    const first = h.sides[0]!.row;
    const e = board.events.get(h.eventId);
    const live = h.sides.some((s) => s.row.isLive);
    const st = staleness(
      board,
      h.sides.map((s) => s.row),
      live,
      now,
    );
    const confidence = Math.max(
      0,
      Math.min(
        100,
        Math.round(100 - Math.max(0, 4 - h.allBooks.length) * 10 - (live ? 15 : 0) - (st.stale ? 25 : 0) - (h.isAlternateLine ? 5 : 0)),
      ),
    );
    const side = (s: LowHoldRecord['sides'][number]) => ({
      selection: s.row.selection,
      selection_type: s.row.selectionType,
      books: s.books,
      line: s.row.line,
      odds: {
        american: s.row.american,
        decimal: s.row.decimal,
        implied_probability: roundTo(1 / s.row.decimal, 6),
        probability: roundTo(1 / s.row.decimal, 6),
        fair_probability: roundTo(s.fairProbability, 6),
      },
      // Each tied book's own price of this outcome; a book without a link template is left out (never null).
      deep_links: deepLinksOf(
        s.books.map((b) => ({
          book: b,
          id:
            b === s.row.sportsbook
              ? s.row.id
              : (board.group(h.source).find((r) => r.sportsbook === b && r.selectionType === s.row.selectionType && r.line === s.row.line)
                  ?.id ?? s.row.id),
        })),
      ),
    });
    return {
      id: h.id,
      ...eventBlock(e, first),
      line: h.line,
      hold_percentage: r4(h.holdPercent),
      side1: side(h.sides[0]!),
      side2: side(h.sides[1]!),
      side3: h.sides[2] ? side(h.sides[2]) : null,
      is_live: live,
      is_alternate_line: h.isAlternateLine,
      all_books: h.allBooks,
      confidence,
      odds_age_seconds: st.oldest,
      possibly_stale: st.stale,
      warnings: guardWarnings(h.guards),
      detected_at: iso(h.detectedAt),
      ...(e ? this.refs.forEvent(e, first.marketType) : {}),
    };
  }
}
