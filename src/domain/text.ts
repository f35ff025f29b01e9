/**
 * What text the store can keep. PostgreSQL refuses a NUL character in `text` and `jsonb`, and a lone UTF-16
 * surrogate reaches it as U+FFFD (silently changed); a U+FFFD in the input means bytes were already lost in
 * decoding (a file that is not valid UTF-8). Every source's text passes this check at the pipeline's edge,
 * so nothing the database would refuse (or alter) gets onto the board. Pure functions.
 */

/** Longest text field accepted (a team, a selection, an id): far above any real name, far below a memory problem. */
export const MAX_TEXT_LENGTH = 500;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Every character any of the checks below looks for (a surrogate of a valid pair too): text without one passes
 * them all, in one scan (every field of every quote passes here; the checks that name the problem run on a match).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SUSPECT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd\ud800-\udfff]/;

const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a text cannot be stored as it is, or null when it can. */
export function textProblem(s: string, max = MAX_TEXT_LENGTH): string | null {
  if (s.length > max) return `is ${s.length} characters long (at most ${max})`;
  if (!SUSPECT.test(s)) return null;
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000), which the database cannot store';
  if (s.includes('\ufffd')) return 'contains bytes that are not valid UTF-8 (U+FFFD: text in another encoding, e.g. Latin-1?)';
  const lone = LONE_SURROGATE.exec(s);
  if (lone) return `contains a lone UTF-16 surrogate (${hex(lone[0])}), which is not a character`;
  const ctl = CONTROL.exec(s);
  if (ctl) return `contains the control character ${hex(ctl[0])}`;
  return null;
}

/**
 * The first problem among the text fields of an object (`field: problem`, the field after `prefix`), or null; `names`
 * are the fields read, in order (all its own, by default). Non-strings are left to the caller.
 */
export function fieldsProblem(fields: object, names: readonly string[] = Object.keys(fields), prefix = ''): string | null {
  for (const name of names) {
    const v: unknown = (fields as Record<string, unknown>)[name];
    if (typeof v !== 'string') continue;
    const p = textProblem(v);
    if (p) return `${prefix}${name} ${p}`;
  }
  return null;
}

/** The first problem in any string inside a JSON-like value (keys included), depth-limited; or null. */
export function deepTextProblem(v: unknown, path = 'value', depth = 0): string | null {
  if (depth > 8) return `${path} is nested too deeply`;
  if (typeof v === 'string') {
    const p = textProblem(v, 10_000);
    return p ? `${path} ${p}` : null;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = deepTextProblem(v[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const kp = textProblem(k, 200);
      if (kp) return `${path} key ${kp}`;
      const p = deepTextProblem(x, `${path}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

/** Text of a file's bytes: UTF-8 (a BOM dropped), or UTF-16 when it starts with a UTF-16 BOM. Undecodable bytes become U+FFFD. */
export function decodeText(buf: Uint8Array): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(buf);
}
