/**
 * The page size a sync asks of a remote's lists: the largest first (fewer requests, so fewer of
 * a slow link's round trips), then, once the remote refused it (a 400, or a page past the bound
 * of a body's bytes), the specification's maximum `limit` for the rest of the sync. The
 * specification says the maximum of one list only (100, for endpoints): a remote may allow more.
 */
export class PageSize {
  private largerRefused = false;

  constructor(
    private readonly largest: number,
    /** The specification's maximum `limit`, which every remote that follows it accepts. */
    private readonly specified: number,
  ) {}

  /** The `limit` to ask now. */
  get limit(): number {
    return this.largerRefused ? Math.min(this.largest, this.specified) : this.largest;
  }

  /** The remote refused pages of `limit`: answers whether a smaller size is left to ask. */
  refused(limit: number): boolean {
    if (limit <= this.specified) return false;
    this.largerRefused = true;
    return true;
  }
}
