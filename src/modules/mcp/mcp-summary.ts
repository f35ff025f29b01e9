import { withLine, type McpToolDef } from './mcp-tools.js';

type Item = Record<string, unknown>;

const isObject = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const signed = (v: unknown): string => (typeof v === 'number' && v > 0 ? `+${v}` : String(v ?? ''));
const MAX_LINES = 10;

/** The best and worst book per selection of price rows (by decimal odds; ties to the alphabetically first book), most-quoted selections first. */
export function bestBySelection(rows: Item[]): string[] {
  const groups = new Map<string, Item[]>();
  for (const r of rows) {
    if (num(r.odds_decimal) === undefined) continue;
    const key = `${r.market_type ? `${String(r.market_type)} ` : ''}${String(r.selection ?? '')}${withLine(r)}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const out: string[] = [];
  // The selections most books quote first (main lines before thin alternates); otherwise in the rows' order.
  for (const [key, g] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const sorted = [...g].sort(
      (a, b) => num(b.odds_decimal)! - num(a.odds_decimal)! || String(a.sportsbook).localeCompare(String(b.sportsbook)),
    );
    const best = sorted[0]!;
    const worst = sorted[sorted.length - 1]!;
    const spread =
      sorted.length > 1 ? ` (worst ${signed(worst.odds_american)} at ${String(worst.sportsbook)}, ${sorted.length} books)` : ' (1 book)';
    out.push(`${key}: best ${signed(best.odds_american)} at ${String(best.sportsbook)}${spread}`);
  }
  return out;
}

function limited(lines: string[]): string {
  if (lines.length <= MAX_LINES) return lines.join('\n');
  return `${lines.slice(0, MAX_LINES).join('\n')}\n... and ${lines.length - MAX_LINES} more`;
}

/** The count line of a list: "12 odds rows (of 340; more with offset=12)". */
function countLine(noun: string, body: Item, n: number): string {
  const meta = isObject(body.meta) ? body.meta : {};
  const pagination = isObject(body.pagination) ? body.pagination : isObject(meta.pagination) ? meta.pagination : {};
  const total = num(meta.total) ?? num(pagination.total);
  let s = `${n} ${noun}`;
  if (total !== undefined && total !== n) s += ` (of ${total})`;
  if (pagination.has_more === true) {
    s += pagination.next_cursor
      ? `; more with cursor=${String(pagination.next_cursor)}`
      : num(pagination.next_offset) !== undefined
        ? `; more with offset=${String(pagination.next_offset)}`
        : '; more available';
  }
  return s;
}

/** What a tool result says in words, above the JSON: counts, paging, the first item, the data delay. */
export function summarize(tool: McpToolDef, body: unknown, delaySeconds: number): string {
  const delay = delaySeconds > 0 ? `\nPrices are as of ${delaySeconds} s ago (this key's tier has a ${delaySeconds} s data delay).` : '';
  if (!isObject(body)) return `${tool.title}: the route answered without a JSON body.${delay}`;
  const data = body.data;
  let text: string;
  if (Array.isArray(data)) {
    const items = data.filter(isObject);
    text = countLine(tool.noun, body, data.length);
    if (tool.name === 'compare_futures_lines' && items.length) text += `\n${limited(bestBySelection(items))}`;
    else if (items.length && tool.highlight) {
      const first = tool.highlight(items[0]!);
      if (first) text += `. First: ${first}`;
    }
  } else if (isObject(data)) {
    text = objectSummary(tool, data);
  } else {
    text = `${tool.title}: no data.`;
  }
  return `${text}${delay}`;
}

function objectSummary(tool: McpToolDef, data: Item): string {
  switch (tool.name) {
    case 'get_account_info': {
      const key = isObject(data.key) ? data.key : {};
      const limits = isObject(data.limits) ? data.limits : {};
      const features = isObject(data.features)
        ? Object.entries(data.features)
            .filter(([, v]) => v === true)
            .map(([k]) => k)
        : [];
      return `Tier ${String(key.tier ?? data.tier ?? '?')}: ${String(limits.requests_per_minute ?? '?')} requests/min, data delay ${String(limits.odds_delay_seconds ?? '?')} s, max books ${String(limits.max_books ?? '?')}; features: ${features.join(', ') || 'none'}.`;
    }
    case 'compare_odds': {
      const books = Object.keys(data);
      const rows = Object.values(data).flatMap((v) => (Array.isArray(v) ? v.filter(isObject) : []));
      const head = `${rows.length} prices at ${books.length} sportsbooks (${books.join(', ')})`;
      return rows.length ? `${head}\n${limited(bestBySelection(rows))}` : `${head}.`;
    }
    case 'get_game_state': {
      const sports = Object.entries(data).filter(([, v]) => isObject(v)) as Array<[string, Item]>;
      const games = sports.flatMap(([, v]) => Object.values(v).filter(isObject));
      const lines = games.map(
        (g) =>
          `${String(g.away_team)} ${String(g.away_score ?? '')} @ ${String(g.home_team)} ${String(g.home_score ?? '')}${g.game_period ? ` (${String(g.game_period)}${g.game_clock ? ` ${String(g.game_clock)}` : ''})` : ''}`,
      );
      const head = `${games.length} live games in ${sports.length} sports`;
      return lines.length ? `${head}\n${limited(lines)}` : `${head}.`;
    }
    case 'get_closing_lines': {
      const books = isObject(data.books) ? data.books : {};
      const rows = Object.values(books).flatMap((v) => (Array.isArray(v) ? v.filter(isObject) : []));
      const name = data.away_team && data.home_team ? `${String(data.away_team)} @ ${String(data.home_team)}` : String(data.event_id ?? '');
      const head = `Closing lines of ${name}: ${rows.length} prices at ${Object.keys(books).length} sportsbooks`;
      return rows.length ? `${head}\n${limited(bestBySelection(rows))}` : `${head}.`;
    }
    case 'get_settlements': {
      const list = Array.isArray(data.settlements) ? data.settlements.filter(isObject) : [];
      let text = `${list.length} settlements (of ${String(data.total_settlements ?? list.length)})`;
      if (num(data.next_offset) !== undefined) text += `; more with offset=${String(data.next_offset)}`;
      const first = list[0];
      if (first)
        text += `. First: ${String(first.game ?? '')} ${String(first.selection ?? '')}${withLine(first)} at ${String(first.sportsbook ?? '')} ${signed(first.odds_american)}: ${String(first.outcome ?? '')}`;
      return text;
    }
    case 'price_parlay': {
      const parlay = isObject(data.parlay) ? data.parlay : {};
      const price = isObject(parlay.price) ? parlay.price : null;
      const legs = String(parlay.leg_count ?? '?');
      const head = price
        ? `Fair price ${signed(price.odds_american)} (decimal ${String(price.odds_decimal)}, probability ${String(price.probability)}) for ${legs} legs at ${String(data.sportsbook ?? '')}`
        : `No price for ${legs} legs: ${String(parlay.reason ?? 'unpriceable')}${Array.isArray(parlay.conflicting_legs) ? ` (conflicting legs ${JSON.stringify(parlay.conflicting_legs)})` : ''}`;
      return `${head}. ${String(parlay.note ?? '')}${Array.isArray(data.warnings) ? ` Warnings: ${data.warnings.join('; ')}.` : ''}`;
    }
    default:
      return `${tool.title}: ${Object.keys(data).length} ${tool.noun}.`;
  }
}

/** A refused call in words: the route's error code and message, and the tier needed when that is the reason. */
export function errorSummary(status: number, body: unknown): string {
  const err = isObject(body) && isObject(body.error) ? body.error : undefined;
  if (!err) return `The request failed with HTTP ${status}.`;
  const code = String(err.code ?? 'error');
  const message = String(err.message ?? '');
  const parts = [`${code} (HTTP ${status}): ${message}${/[.!?]$/.test(message) ? '' : '.'}`];
  if (err.required_tier) parts.push(`Required tier: ${String(err.required_tier)}.`);
  if (err.retry_after !== undefined) parts.push(`Retry after ${String(err.retry_after)} s.`);
  return parts.join(' ');
}
