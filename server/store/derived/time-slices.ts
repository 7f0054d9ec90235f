import { nextTurn } from '../engine/next-turn.js';

/**
 * How long a chunked computation holds the thread that answers requests before it gives the
 * event loop a turn: short enough that a request arriving meanwhile waits well under 100 ms,
 * even on a machine whose other work slows the computation down.
 */
export const sliceMs = 20;

/**
 * The pauses of a computation done in chunks over a million rows (sorting them, counting them,
 * reading columns): call {@link TimeSlices.pause} between chunks, and check {@link
 * TimeSlices.due} inside a long loop. Once a slice has run {@link sliceMs}, a pause gives the
 * event loop a turn (other requests are answered), then calls the computation's `checkpoint`,
 * which throws when the data changed meanwhile (DerivedCache.settled starts it again).
 */
export class TimeSlices {
  private started = performance.now();

  constructor(private readonly checkpoint: () => void) {}

  /** Whether the current slice has run its time. */
  get due(): boolean {
    return performance.now() - this.started >= sliceMs;
  }

  /** A turn of the event loop if the slice has run its time; nothing otherwise. */
  async pause(): Promise<void> {
    if (!this.due) return;
    await nextTurn();
    this.checkpoint();
    this.started = performance.now();
  }
}
