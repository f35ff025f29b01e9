import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

/**
 * One full garbage collection, now. For a phase boundary that leaves a burst of garbage behind: after a start's
 * initial market load about half of the heap is garbage (the snapshot's quotes, the writes' statements), which V8
 * otherwise keeps, and keeps resident, for a minute or two until its own full collection. Returns how long the
 * collection took in milliseconds.
 */
export function fullGc(): number {
  if (!gc) {
    // V8's gc() on a context made after the flag is set (the process's own global does not get it).
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  const started = performance.now();
  gc();
  return performance.now() - started;
}
