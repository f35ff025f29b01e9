/**
 * Secrets out of log text. A query parameter is recognised by its name as the server reads it: percent-decoded
 * (any character may be encoded, `api%5Fkey` is `api_key`), `+` read as a space, in any case, with `-`, `_`,
 * spaces and brackets ignored (`API-Key`, `apiKey`, `api_key[]`); every occurrence is redacted (a repeated
 * parameter included). Headers echoed in text (`X-API-Key: ...`, `Authorization: Bearer ...`) and anything
 * shaped like a key this service issues (`sk_live_` and 16 or more letters and digits) are redacted as well.
 * Pure functions.
 */

/** Parameter names (decoded, lower case, letters and digits only) whose values are secrets. */
const SECRET_NAMES = new Set(['apikey', 'xapikey', 'key', 'token', 'accesstoken', 'admintoken', 'xadmintoken', 'authorization', 'bearer']);

export const REDACTED = '[redacted]';

/** `%XX` sequences decoded where they form UTF-8; a malformed one is kept as it is. */
function percentDecode(s: string): string {
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** True when a raw query parameter name, decoded the way a query parser would (and again, twice), names a secret. */
export function isSecretParam(rawName: string): boolean {
  let name = rawName.replace(/\+/g, ' ');
  for (let i = 0; i < 3; i++) {
    const next = percentDecode(name);
    if (next === name) break;
    name = next;
  }
  return SECRET_NAMES.has(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** name=value pairs after `?`, `&` or `;` (or at the start of a quoted string): the value ends at `&`, `#`, a quote or a space. */
const QUERY_PAIR = /(^|[?&;"'\s])([^=&?#;"'\s<>]{1,256})=([^&#;"'\s<>]*)/g;
const HEADER = /((?:x[-_])?api[-_]?key|x-admin-token|admin[-_]?token|authorization)(["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"',}&]+/gi;
const BEARER = /(bearer\s+)[^\s"',}]+/gi;
const ISSUED_KEY = /\bsk_(live|test)_[0-9A-Za-z]{16,}/g;

/** The text with every secret it carries replaced by `[redacted]`. */
export function redact(text: string): string {
  return text
    .replace(QUERY_PAIR, (all, sep: string, name: string) => (isSecretParam(name) ? `${sep}${name}=${REDACTED}` : all))
    .replace(HEADER, `$1$2${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(ISSUED_KEY, `sk_$1_${REDACTED}`);
}

/** A URL as it may be logged or stored: its query's secrets redacted (see redact). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q) + redact(url.slice(q));
}
