/**
 * Stamps every event a process publishes with a sequence number: monotonic within the process, and starting
 * from the start time in microseconds so a worker that takes over after another continues above its numbers.
 * Stream frame ids derive from it, so a client can resume (Last-Event-ID) on any instance.
 *
 * Wall time on purpose, not the injected Clock: the numbers must keep rising across processes and restarts
 * (a replica drops what is not above what it has seen), which a test's manual clock, reset at every start,
 * would break. They are identifiers, not times anyone reads.
 */
export class Sequencer {
  private last: number;
  constructor(start = Date.now() * 1000) {
    this.last = start;
  }
  next(): number {
    const floor = Date.now() * 1000;
    this.last = Math.max(this.last + 1, floor);
    return this.last;
  }
}
