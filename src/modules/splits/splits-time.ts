const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([Zz]|[+-]\d{2}:?\d{2})?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A time parameter: RFC 3339 (`2026-11-22T18:00:00Z`, `2026-11-22T13:00:00-05:00`; a date alone is midnight
 * UTC, a time without offset is UTC) or Unix seconds (`1795370400`, fractional allowed). Returns ms, or null
 * for anything else, including impossible dates such as February 30.
 */
export function parseTimeParam(raw: string): number | null {
  const s = raw.trim();
  if (/^\d{1,12}(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac, off] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(sec);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  let offsetMin = 0;
  if (off && off.toUpperCase() !== 'Z') {
    const digits = off.replace(':', '');
    const oh = Number(digits.slice(1, 3)),
      om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return null;
    offsetMin = (digits.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000;
}
