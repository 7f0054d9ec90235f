import type { Transform } from 'node:stream';
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

/** Text given to a parser between two turns of the event loop: a few milliseconds of parsing. */
const charactersPerTurn = 16_384;

/**
 * Feeds `text` to a parsing stream (csv-parse's) a piece of whole lines at a time (cut after a
 * line's end, so that no character is split between two pieces) with a turn of the event loop
 * after each, so that the server answers meanwhile; ends it and waits until it closed. Answers
 * the error it failed with (its own, or one its record callback threw), undefined if none.
 */
export async function parseInTurns(parser: Transform, text: string): Promise<unknown> {
  let failure: unknown;
  // A stream that fails is destroyed, one that ends too: either way it closes.
  parser.on('error', (error) => (failure ??= error));
  const closed = new Promise((resolve) => parser.once('close', resolve));
  parser.resume();
  for (let from = 0; from < text.length && failure === undefined; ) {
    const newline = text.indexOf('\n', from + charactersPerTurn);
    const to = newline < 0 ? text.length : newline + 1;
    parser.write(text.slice(from, to));
    from = to;
    await nextTurn();
  }
  if (failure === undefined) parser.end();
  await closed;
  return failure;
}
