/**
 * The first `limit` items in an order among many offered one at a time, without keeping or
 * sorting them all: a CVE's first endpoints by hostname among its tens of thousands.
 */
export class FirstInOrder<T> {
  private readonly kept: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** Keeps `item` if it is among the first `limit` offered so far (equal items in the order offered). */
  offer(item: T): void {
    const kept = this.kept;
    if (kept.length === this.limit && this.compare(item, kept.at(-1)!) >= 0) return;
    let at = kept.length;
    while (at > 0 && this.compare(item, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > this.limit) kept.pop();
  }

  /** The first items, in order. */
  get items(): T[] {
    return [...this.kept];
  }
}
