import { Injectable } from '@nestjs/common';

/**
 * The moment the application serves: createApp's end, or, for the server (main.ts, `holdProviders`), once its
 * port answers. What would slow the first answers down waits for it: the providers' start, the re-check of the
 * opportunities a restart read from its last stop.
 */
@Injectable()
export class Serving {
  private began = false;
  private readonly waiting: Array<() => void> = [];

  /** Runs `fn` once the application serves (at once when it does). */
  onServing(fn: () => void): void {
    if (this.began) fn();
    else this.waiting.push(fn);
  }

  /** The application serves now (once; later calls do nothing). */
  begin(): void {
    if (this.began) return;
    this.began = true;
    for (const fn of this.waiting.splice(0)) fn();
  }
}
