/** Time-zone arithmetic through Intl (deterministic: no clock is read). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Offset of `tz` from UTC at the instant `utcMs`, in ms (local = utc + offset). */
export function tzOffset(utcMs: number, tz: string): number {
  if (tz === 'UTC') return 0;
  const parts = formatter(tz).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** Epoch ms of a wall-clock time (year, month 1-12, day, hour, minute) in `tz`. */
export function zonedToUtc(year: number, month: number, day: number, hour: number, minute: number, tz: string): number {
  const local = Date.UTC(year, month - 1, day, hour, minute);
  let guess = local - tzOffset(local, tz);
  guess = local - tzOffset(guess, tz);
  return guess;
}

/** Day of week (0 = Sunday) of a calendar date. */
export function dayOfWeek(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}
