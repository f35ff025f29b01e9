import { readJson } from '../../config/paths.js';
import { dict } from '../../domain/dict.js';

/**
 * Deep-link templates per book (config/deep-links.json) and their resolution. Plain functions, no framework:
 * the presenters call `deepLinkPath` for the `deep_link` of a row or leg, the resolver route `resolveDeepLink`.
 */

export type DeepLinkType = 'outcome' | 'event' | 'homepage';
type Level = 'outcome' | 'event';
export type IdName = 'event_id' | 'market_id' | 'selection_id';

/** One book's entry in config/deep-links.json. */
export interface BookLinkSpec {
  homepage: string;
  /** The home page of the book's site for one state ({state}); used when the request names a state it serves. */
  state_homepage?: string;
  event?: string;
  outcome?: string;
  /** Levels that need a state (their template holds {state}); without one they are skipped. */
  state_required?: Level[];
  /** The states (two letters, lower case) the book serves; a state outside it is ignored. */
  states?: string[];
  /** Pattern each id must match to be put in a URL (the book's own id format). */
  ids?: Partial<Record<IdName, string>>;
  source: string;
}

export interface LinkIds {
  event_id?: string | null;
  market_id?: string | null;
  selection_id?: string | null;
}

export interface ResolvedLink {
  url: string;
  type: DeepLinkType;
}

interface CompiledBook {
  spec: BookLinkSpec;
  patterns: Partial<Record<IdName, RegExp>>;
  states: ReadonlySet<string> | null;
}

const PLACEHOLDER = /\{(event_id|market_id|selection_id|state)\}/g;
/** Ids without a declared pattern must still be plain URL-safe tokens. */
const SAFE_ID = /^[A-Za-z0-9._~-]{1,128}$/;
export const STATE_PATTERN = /^[a-z]{2}$/;

export class DeepLinkTemplates {
  private readonly books = new Map<string, CompiledBook>();

  constructor(specs: Record<string, BookLinkSpec>) {
    for (const [id, spec] of Object.entries(specs)) {
      const patterns: CompiledBook['patterns'] = {};
      for (const [k, v] of Object.entries(spec.ids ?? {})) patterns[k as IdName] = new RegExp(v);
      this.books.set(id, { spec, patterns, states: spec.states ? new Set(spec.states) : null });
    }
  }

  /** Whether the book has a template at all (books without one: no link, null / left out). */
  has(book: string): boolean {
    return this.books.has(book);
  }

  spec(book: string): BookLinkSpec | undefined {
    return this.books.get(book)?.spec;
  }

  bookIds(): string[] {
    return [...this.books.keys()];
  }

  /**
   * The most precise link the book's templates allow for these ids and state: outcome, then event, then the
   * (state's) home page. A level is skipped when an id it needs is missing or does not match the book's id
   * pattern, or when it needs a state and none the book serves was given. Null for a book without a template.
   */
  resolve(book: string, ids: LinkIds, state?: string | null): ResolvedLink | null {
    const b = this.books.get(book);
    if (!b) return null;
    const st = state ? state.toLowerCase() : null;
    const validState = st !== null && STATE_PATTERN.test(st) && (b.states === null || b.states.has(st)) ? st : null;
    for (const level of ['outcome', 'event'] as const) {
      const template = b.spec[level];
      if (!template) continue;
      const url = fill(template, b, ids, validState);
      if (url) return { url, type: level };
    }
    if (validState && b.spec.state_homepage) return { url: b.spec.state_homepage.replace('{state}', validState), type: 'homepage' };
    return { url: b.spec.homepage, type: 'homepage' };
  }
}

function fill(template: string, b: CompiledBook, ids: LinkIds, state: string | null): string | null {
  let ok = true;
  const url = template.replace(PLACEHOLDER, (_m, name: string) => {
    if (name === 'state') {
      if (!state) ok = false;
      return state ?? '';
    }
    const value = ids[name as IdName];
    const pattern = b.patterns[name as IdName] ?? SAFE_ID;
    if (!value || !pattern.test(value)) {
      ok = false;
      return '';
    }
    return encodeURIComponent(value);
  });
  return ok ? url : null;
}

let loaded: DeepLinkTemplates | null = null;

/** The templates of config/deep-links.json (read once). */
export function deepLinkTemplates(): DeepLinkTemplates {
  return (loaded ??= new DeepLinkTemplates(readJson<{ books: Record<string, BookLinkSpec> }>('config', 'deep-links.json').books));
}

/** Where the resolver answers (relative to the host; the public product's `/deeplinks/batch` answers paths of the same form). */
export const DEEP_LINK_BASE = '/api/v1/deeplink/';

/**
 * The `deep_link` of an odds row, a leg or a side: the resolver's path for the id (an odds id or an
 * opportunity id), or null when the book has no template.
 */
export function deepLinkPath(book: string, id: string, state?: string | null): string | null {
  if (!deepLinkTemplates().has(book)) return null;
  return `${DEEP_LINK_BASE}${encodeURIComponent(id)}${state ? `?state=${encodeURIComponent(state)}` : ''}`;
}

/**
 * `deep_links` of an opportunity side: book -> link for each book with a template; a book without one is left
 * out (never a null value: the Python SDK refuses nulls there).
 */
export function deepLinksOf(entries: ReadonlyArray<{ book: string; id: string }>): Record<string, string> {
  const out: Record<string, string> = dict();
  for (const e of entries) {
    const link = deepLinkPath(e.book, e.id);
    if (link !== null && !Object.hasOwn(out, e.book)) out[e.book] = link;
  }
  return out;
}
