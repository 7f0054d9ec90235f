/**
 * A turn of the event loop: what is queued (a request, a `/health`, a timer) runs before what
 * follows. Two immediates: one set from a request's handler (the loop's poll phase) runs in the
 * same loop iteration, before any other I/O is read, and gave a waiting `/health` nothing; the
 * second runs after the next poll. The pause of every piece of sliced work (the time slices of
 * store/derived, a checkpoint's, held pages handed on, exports written a chunk at a time), and
 * put between steps that each stay short but would otherwise run in one turn (an await of a
 * settled promise gives none) and together hold the thread longer.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}
