import { ApiError } from '../http/api-error.js';

/**
 * The rule for a name or label a user gives and the service stores and shows back (key names, account names):
 * 1 to `max` characters (code points) once trimmed, and nothing that is not printable text: no control
 * character of any kind (Unicode category Cc: C0 U+0000-U+001F, DEL U+007F, C1 U+0080-U+009F such as NEL U+0085
 * and CSI U+009B), no line or paragraph separator (U+2028, U+2029), no bidirectional embedding, override or
 * isolate (U+202A-U+202E, U+2066-U+2069: they reorder what is shown after them), and no lone UTF-16 surrogate.
 * Pure functions.
 */

/** Longest name (100 characters, as the public product allows for key names). */
export const MAX_LABEL = 100;

const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a (trimmed) name cannot be stored, or null when it can. */
export function labelProblem(name: string, max = MAX_LABEL): string | null {
  if (!name) return 'must not be empty';
  if ([...name].length > max) return `at most ${max} characters`;
  const bad = FORBIDDEN.exec(name);
  if (bad) return `must not contain control or formatting characters (found ${codePoint(bad[0])})`;
  return null;
}

/** The name trimmed, or 400 invalid_request naming the parameter and the problem. */
export function checkLabel(value: string, parameter: string, max = MAX_LABEL): string {
  const name = value.trim();
  const problem = labelProblem(name, max);
  if (problem) throw new ApiError('invalid_request', `Invalid parameter "${parameter}": ${problem}`, { parameter });
  return name;
}
