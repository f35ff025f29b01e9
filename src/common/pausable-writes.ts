/**
 * A writer's periodic writes that can be held back: a provider's large initial snapshot is written once it is all
 * on the board, not between its slices (the embedded database shares the ingest's thread). While paused, only a
 * forced flush writes (a read waiting for its data, a shutdown).
 */
export abstract class PausableWrites {
  private paused = false;

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }

  /** Whether a flush asked with these options waits: paused, and not forced. */
  protected held(opts: { force?: boolean }): boolean {
    return this.paused && !opts.force;
  }
}
