import { Injectable } from '@nestjs/common';
import { Catalog } from '../../config/catalog.js';
import { notFound } from '../../common/http/api-error.js';
import { BoardService } from '../board/board.service.js';
import { DetectionEngine } from '../detection/detection.engine.js';
import { DEEP_LINK_BASE, deepLinkTemplates, type LinkIds, type ResolvedLink } from './deep-link-templates.js';
import { dict } from '../../domain/dict.js';

/** One priced selection a link can open: its book and the book's own ids. */
export interface LinkTarget {
  book: string;
  ids: LinkIds;
}

/** Finds the prices behind an id (an odds id, an opportunity id, a futures price id); empty when unknown. */
export type TargetFinder = (id: string) => LinkTarget[] | null;

export interface Redirect extends ResolvedLink {
  book: string;
}

/**
 * The deep-link resolver (GET /deeplink/{id}, 302 to the book): an odds id or an opportunity id (any registered type) -> the book's
 * bet slip, event page or home page, as its template allows. Other id spaces (futures) register a finder.
 */
@Injectable()
export class DeepLinksService {
  private readonly finders: TargetFinder[] = [];

  constructor(
    private readonly boards: BoardService,
    private readonly engine: DetectionEngine,
    private readonly catalog: Catalog,
  ) {
    this.finders.push((id) => {
      const r = this.boards.board.rows.get(id);
      return r ? [{ book: r.sportsbook, ids: { event_id: r.externalEventId, market_id: r.marketId, selection_id: r.selectionId } }] : null;
    });
    this.finders.push((id) => {
      for (const d of this.engine.types()) {
        const rec = this.engine.known(d.kind, id);
        if (!rec) continue;
        // Its prices, then every other book offering the same price on the same outcome (a low-hold side lists
        // all the books at its best price; the record keeps one of their rows).
        const rows = [...d.rows(rec)];
        for (const r of d.rows(rec)) {
          for (const o of this.boards.board.group(r.groupKey)) {
            if (
              o.sportsbook !== r.sportsbook &&
              o.selectionType === r.selectionType &&
              o.line === r.line &&
              o.decimal === r.decimal &&
              !rows.includes(o)
            )
              rows.push(o);
          }
        }
        return rows.map((r) => ({
          book: r.sportsbook,
          ids: { event_id: r.externalEventId, market_id: r.marketId, selection_id: r.selectionId },
        }));
      }
      return null;
    });
  }

  /** Adds an id space (futures prices). */
  addFinder(f: TargetFinder): void {
    this.finders.push(f);
  }

  targets(id: string): LinkTarget[] | null {
    for (const f of this.finders) {
      const t = f(id);
      if (t?.length) return t;
    }
    return null;
  }

  /**
   * Where `GET /deeplink/{id}` sends the caller. `book` picks one of an opportunity's books (404 when it has
   * none of that book); `fallback` turns an unknown id into `book`'s home page.
   */
  resolve(id: string, opts: { state?: string; book?: string; fallback?: boolean }): Redirect {
    const templates = deepLinkTemplates();
    const book = opts.book ? (this.catalog.book(opts.book)?.id ?? opts.book.toLowerCase()) : undefined;
    const found = this.targets(id);
    if (!found) {
      if (opts.fallback && book && templates.has(book)) return { ...templates.resolve(book, {}, opts.state)!, book };
      throw notFound(
        `No price or opportunity with id "${id}" (it may have expired)${opts.fallback && !book ? '; fallback needs a book' : ''}`,
      );
    }
    const candidates = book ? found.filter((t) => t.book === book) : found;
    if (!candidates.length) throw notFound(`"${id}" has no price at ${book}`);
    for (const t of candidates) {
      const link = templates.resolve(t.book, t.ids, opts.state);
      if (link) return { ...link, book: t.book };
    }
    throw notFound(
      `No deep link for "${id}": ${[...new Set(candidates.map((t) => t.book))].join(', ')} ${candidates.length > 1 ? 'have' : 'has'} no link template`,
    );
  }

  /** `POST /deeplinks/batch`: each id -> the resolver path, or null when the id is unknown or none of its books has a template. */
  batch(ids: readonly string[], state?: string): Record<string, string | null> {
    const templates = deepLinkTemplates();
    const out: Record<string, string | null> = dict();
    const suffix = state ? `?state=${state.toLowerCase()}` : '';
    for (const id of ids) {
      if (Object.hasOwn(out, id)) continue;
      const t = this.targets(id);
      out[id] = t?.some((x) => templates.has(x.book)) ? `${DEEP_LINK_BASE}${encodeURIComponent(id)}${suffix}` : null;
    }
    return out;
  }
}
