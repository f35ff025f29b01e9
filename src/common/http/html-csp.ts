import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of an HTML page the service serves: everything from this origin only, no plugin,
 * no base URL, no framing; the page's own inline `<script>` and `<style>` blocks and `style="..."` attributes
 * are allowed by their SHA-256 hashes (computed from the page as sent), nothing else inline. Images may also be
 * data: URLs (Swagger UI's icons). Pure functions.
 */

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
const STYLE_ATTRIBUTE = /\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function hashes(html: string, re: RegExp): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(re)) out.add(hash(m[1] ?? m[2] ?? ''));
  return [...out];
}

/**
 * Style blocks a script inserts as it runs, by the script a page loads: Swagger UI (swagger-ui-dist 5) renders
 * its logo as an SVG with this `<style>` inside. The browser test of /docs fails when a new version inserts another.
 */
const RUNTIME_STYLES: ReadonlyArray<{ script: RegExp; styles: readonly string[] }> = [
  {
    script: /<script\b[^>]*\bsrc\s*=\s*["'][^"']*swagger-ui-bundle\.js["']/i,
    styles: ['.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}'],
  },
];

/** The policy for a page (its inline blocks, and those the scripts it loads insert, allowed by hash). */
export function htmlCsp(html: string): string {
  const scripts = hashes(html, INLINE_SCRIPT);
  const inserted = RUNTIME_STYLES.filter((r) => r.script.test(html)).flatMap((r) => r.styles.map(hash));
  const styles = [...new Set([...hashes(html, INLINE_STYLE), ...inserted])];
  const attributes = hashes(html, STYLE_ATTRIBUTE);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scripts].join(' '),
    ["style-src 'self'", ...styles, ...(attributes.length ? ["'unsafe-hashes'", ...attributes] : [])].join(' '),
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of an HTML answer whose body is not at hand (a stream): nothing inline at all. */
export const STRICT_HTML_CSP = htmlCsp('');

const cache = new Map<string, string>();

/** htmlCsp, remembered for the few distinct pages the service serves. */
export function cachedHtmlCsp(html: string): string {
  let csp = cache.get(html);
  if (csp === undefined) {
    csp = htmlCsp(html);
    if (cache.size >= 64) cache.clear();
    cache.set(html, csp);
  }
  return csp;
}
