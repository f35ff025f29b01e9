/** The calendar of usage counts: UTC days, ISO weeks (Monday to Sunday) and calendar months. Pure functions. */

const DAY_MS = 86_400_000;

let lastDay = { n: Number.NaN, day: '' };

/** The UTC day of an instant, `YYYY-MM-DD` (the last day computed is kept: every request of a day asks for it). */
export function dayOf(ms: number): string {
  const n = Math.floor(ms / DAY_MS);
  if (n !== lastDay.n) lastDay = { n, day: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.day;
}

/** The UTC month of a day, `YYYY-MM`. */
export function monthOfDay(day: string): string {
  return day.slice(0, 7);
}

export interface UsagePeriods {
  today: string;
  /** Monday of the current ISO week (UTC). */
  weekStart: string;
  /** First day of the current month (UTC). */
  monthStart: string;
  /** The earliest of weekStart and monthStart: every day a count is needed from. */
  from: string;
  /** The month as the usage endpoint reports it: its first instant and its last second. */
  period: { start: string; end: string };
  /** Every day from `from` to today, oldest first. */
  days: string[];
}

export function usagePeriods(now: number): UsagePeriods {
  const d = new Date(now);
  const todayStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  const weekStartMs = todayStart - sinceMonday * DAY_MS;
  const monthStartMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const nextMonthMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const fromMs = Math.min(weekStartMs, monthStartMs);
  const days: string[] = [];
  for (let t = fromMs; t <= todayStart; t += DAY_MS) days.push(dayOf(t));
  return {
    today: dayOf(todayStart),
    weekStart: dayOf(weekStartMs),
    monthStart: dayOf(monthStartMs),
    from: dayOf(fromMs),
    period: { start: new Date(monthStartMs).toISOString(), end: new Date(nextMonthMs - 1000).toISOString() },
    days,
  };
}

/** Requests today, this week and this month from counts per day (days absent count 0). */
export function usageTotals(
  p: UsagePeriods,
  perDay: ReadonlyMap<string, number>,
): { today: number; this_week: number; this_month: number } {
  let week = 0;
  let month = 0;
  for (const day of p.days) {
    const n = perDay.get(day) ?? 0;
    if (day >= p.weekStart) week += n;
    if (day >= p.monthStart) month += n;
  }
  return { today: perDay.get(p.today) ?? 0, this_week: week, this_month: month };
}

/**
 * A day's count from two sources that each count every request but may each lag or lose some: the shared
 * counter (Redis, current within a flush but emptied by a Redis restart) and the database (durable, written
 * less often). Each is a lower bound once this instance's own unwritten requests are added; the larger one is
 * the count.
 */
export function mergeDay(shared: number, sharedPending: number, stored: number, storedPending: number): number {
  return Math.max(shared + sharedPending, stored + storedPending);
}
