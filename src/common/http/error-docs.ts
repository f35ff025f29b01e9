import { STATUS_OF, type ErrorCode } from './api-error.js';

/**
 * What each error code means, in one place: the table of the API description and the page the `docs` link of
 * every error body points to (`/docs/errors#error-<code>`) are both built from it. A `Record` over the codes,
 * so a new code does not compile until it is described here.
 */
export const ERROR_DOCS: Record<ErrorCode, string> = {
  invalid_request:
    'A parameter is missing, of the wrong type, out of range, or unknown (the message names it); also a malformed body or request',
  offset_too_large: "offset above the endpoint's maximum (`max_offset`); page further with `cursor` where the endpoint has one",
  too_few_legs: 'POST /parlay/price: fewer than 2 legs',
  too_many_legs: 'POST /parlay/price: more legs than the maximum (`max_legs`)',
  unknown_leg: 'POST /parlay/price: a leg matches no current price (`leg` is its index)',
  ambiguous_leg: 'POST /parlay/price: a leg matches several prices; name its `line` or `sportsbook` (`leg` is its index)',
  correlation_unsupported:
    'POST /parlay/price: several legs on one game that the joint score model cannot join (player props, period markets, a sport without a model)',
  unauthorized: 'Missing, invalid, revoked or expired key (or admin token)',
  tier_restricted: 'The tier or account lacks the feature or the book (`required_tier`, `max_books`)',
  feature_disabled: 'The tier has the feature but it is switched off for this account (`feature`: the per-account arbitrage flag)',
  not_found: 'Unknown id or path (also any file under /docs the UI does not need)',
  method_not_allowed: 'Known path, wrong method (the `Allow` header lists the methods)',
  request_timeout: 'The request did not arrive in time',
  gone: 'The endpoint was withdrawn',
  unknown_endpoint: 'A path clients commonly guess that does not exist here; `correct_endpoint` names the one to use',
  payload_too_large: 'Request body over the limit',
  unsupported_media_type: 'A request body that is not `application/json`',
  header_too_large: 'Request headers (the URL included) over 16 KB',
  rate_limited: 'Over the per-minute budget, or too many failed authentications from the address (`Retry-After`, `retry_after` in seconds)',
  too_many_streams: 'More open streams than the tier allows',
  internal_error: 'A fault of ours (no details are exposed; quote the X-Request-Id)',
  service_unavailable: 'A dependency is down, or the service is starting',
};

const CODES = (Object.keys(ERROR_DOCS) as ErrorCode[]).sort((a, b) => STATUS_OF[a] - STATUS_OF[b]);

/** The error table of the API description (Markdown). */
export function errorTableMarkdown(): string {
  return ['| HTTP | code | when |', '|---|---|---|', ...CODES.map((c) => `| ${STATUS_OF[c]} | ${c} | ${ERROR_DOCS[c]} |`)].join('\n');
}

const escape = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
const inlineCode = (s: string) => escape(s).replace(/`([^`]+)`/g, '<code>$1</code>');

/** The page the `docs` links of error bodies point to: one row per code, each with the anchor `error-<code>`. */
export function errorPageHtml(): string {
  const rows = CODES.map(
    (c) =>
      `<tr id="error-${c}"><td>${STATUS_OF[c]}</td><td><a href="#error-${c}"><code>${c}</code></a></td><td>${inlineCode(ERROR_DOCS[c])}</td></tr>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Odds Service API: errors</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.4rem .6rem;text-align:left;vertical-align:top}tr:target{background:#fff3c4}</style>
</head><body>
<h1>Errors</h1>
<p>Every error has the body <code>{"error": {"code", "message", "docs"}}</code>; fields such as <code>required_tier</code>, <code>retry_after</code>,
<code>max_books</code> and <code>max_offset</code> are also copied to the top level. The API reference is at <a href="/docs">/docs</a>.</p>
<table><thead><tr><th>HTTP</th><th>code</th><th>when</th></tr></thead><tbody>
${rows}
</tbody></table>
</body></html>
`;
}
