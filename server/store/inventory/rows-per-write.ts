/** How long a bulk job's write aims to take where requests may wait behind it. */
export const defaultWriteMs = 20;

/**
 * How many rows a bulk job (a sync's staging, a collection) writes per `Store.write`, adapted
 * to how long its writes take: each write's pages go to the change log whole, and a write of
 * more rows rewrites the pages they share (index leaves, mostly) fewer times in all, so the
 * job writes as many rows at a time as keep a write near {@link targetMs}. Doubled after a
 * write of under half of it, halved after one over it, within the bounds.
 */
export class RowsPerWrite {
  private rows: number;

  constructor(
    private readonly min: number,
    private readonly max: number,
    private readonly targetMs = defaultWriteMs,
  ) {
    this.rows = min;
  }

  /**
   * Rows per write for a job whose writes aim at `writeMs`: at most `maxAtDefaultPace` at
   * {@link defaultWriteMs}, and as many more or fewer as the writes are longer or shorter (the
   * command line's 250 ms writes take 12.5 times as many), never under `min`.
   */
  static paced(min: number, maxAtDefaultPace: number, writeMs: number): RowsPerWrite {
    return new RowsPerWrite(min, Math.max(min, Math.round((maxAtDefaultPace * writeMs) / defaultWriteMs)), writeMs);
  }

  /** The rows the next write takes. */
  get size(): number {
    return this.rows;
  }

  /** Tells how long the last write took. */
  took(ms: number): void {
    if (ms < this.targetMs / 2) this.rows = Math.min(this.max, this.rows * 2);
    else if (ms > this.targetMs) this.rows = Math.max(this.min, Math.floor(this.rows / 2));
  }
}
