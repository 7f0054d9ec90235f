/**
 * How long a chunked computation holds the thread that answers requests before it gives the
 * event loop a turn: short enough that a request arriving meanwhile waits well under 100 ms,
 * even on a machine whose other work slows the computation down.
 */
export const sliceMs = 20;

/**
 * A turn of the event loop: what is queued (a request, a `/health`, a timer) runs before what
 * follows. Two immediates: one set from a request's handler (the loop's poll phase) runs in the
 * same loop iteration, before any other I/O is read, and gave a waiting `/health` nothing; the
 * second runs after the next poll. Put between steps that each stay under {@link sliceMs} but
 * would otherwise run in one turn (an await of a settled promise gives none) and together hold
 * the thread longer.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

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
