/**
 * A table keyed by outside text (a book, market, league, team or event id, a parameter's value) as an object with
 * no prototype: `constructor`, `__proto__` or `toString` is an ordinary key there, absent until set, never one of
 * Object.prototype's members. The lint rule in eslint.config.js refuses an object literal typed as a `Record`;
 * use this or a `Map`. JSON.stringify and Object.entries read it like any object. Pure.
 */
export function dict<V>(entries?: Readonly<Record<string, V>>): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  if (entries) for (const [k, v] of Object.entries(entries)) out[k] = v;
  return out;
}
