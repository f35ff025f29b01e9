/**
 * Epoch milliseconds as ISO timestamps for the board writer's statements. Rows written together mostly share
 * their times: the last few are remembered (a Date and its ISO string cost more than the rest of a row).
 */
export class IsoTimes {
  private readonly ms = [NaN, NaN, NaN, NaN];
  private readonly text = ['', '', '', ''];
  private next = 0;

  /**
   * Not a time (NaN, out of range): a text the database refuses for its data (22007), so the row is quarantined
   * like any other bad value instead of failing the whole write as a JavaScript error.
   */
  format(ms: number): string {
    const i = this.ms.indexOf(ms);
    if (i >= 0) return this.text[i]!;
    const d = new Date(ms);
    const s = Number.isNaN(d.getTime()) ? `invalid time ${ms}` : d.toISOString();
    this.ms[this.next] = ms;
    this.text[this.next] = s;
    this.next = (this.next + 1) & 3;
    return s;
  }
}
