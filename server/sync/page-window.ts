import { sleep } from './sync-policy.js';

/**
 * A round of the window's throughput is twice the pages it holds, and at least this many: fewer
 * would let one slow answer, or a burst of answers that waited for the thread, decide whether
 * the window grows.
 */
const roundPagesAtLeast = 16;

/**
 * Pages held, arrived and not yet taken by the sync, for each page the window may have in flight:
 * the fetching thread goes on while the sync's thread writes (a write of the command line takes
 * 100 ms, in which a link of 50 ms brings some 20 pages of `large`), within the bytes a sync
 * holds. Four times as many took the command's peak 15 MiB higher for nothing.
 */
const heldPagesPerPageInFlight = 2;

/**
 * How many of a remote's pages a sync has in flight at once, for every list it pages: the
 * window. It grows by one page after each round (twice the pages it holds) whose throughput beat
 * the round before's by at least half of what one more page in flight adds on a link bound by
 * its latency, so that it grows on a slow link and mostly holds where the remote or our own work
 * is the bottleneck; it never passes `bound`, which is polite to the remote. A remote that
 * pushes back (429, 5xx, a timeout) halves it (additive increase, multiplicative decrease), and a
 * `Retry-After` holds every request, not only the one it answered, until its time has passed.
 *
 * It also keeps the bytes the sync holds within their bound: each page in flight counts as its
 * cap ({@link pageBytes}), each page arrived and not yet taken as what it weighed, and a request
 * is sent only while one more page at its cap fits; pages held are also at most
 * {@link heldPagesPerPageInFlight} times the bound.
 */
export class PageWindow {
  private size: number;
  /** The most pages in flight, ever: the policy's, or fewer once pages are heavy ({@link heavier}). */
  private most: number;
  private pageCap: number;
  private inFlight = 0;
  /** Pages arrived and not yet taken ({@link taken}), and their bytes. */
  private heldPages = 0;
  private heldBytes = 0;
  /** No request is sent before this time (`performance.now()`): a remote's `Retry-After`. */
  private notBefore = 0;
  private roundStarted = performance.now();
  private roundPages = 0;
  /** The last round's pages per millisecond. */
  private lastRate = 0;
  /** When the window last halved: a request sent before it was in flight then, and halves it no more. */
  private halvedAt = Number.NEGATIVE_INFINITY;

  constructor(
    bound: number,
    initial: number,
    /** The most bytes of one page's body. */
    private readonly pageMaxBytes: number,
    /** The most bytes of the pages held at once: the bound times each page's cap stays within it. */
    private readonly heldMaxBytes: number,
  ) {
    this.most = bound;
    this.pageCap = Math.min(pageMaxBytes, Math.floor(heldMaxBytes / bound));
    this.size = Math.max(1, Math.min(bound, initial));
  }

  /** Whether pages may weigh up to the bound of a body ({@link heavier}, or a share of the held bytes as large). */
  get heavy(): boolean {
    return this.pageCap >= this.pageMaxBytes;
  }

  /** The most bytes of one page's body now: the held bytes' share of each page in flight. */
  get pageBytes(): number {
    return this.pageCap;
  }

  /**
   * A page of the smallest size weighed more than its share: pages may weigh up to the bound of a
   * body from now on, and fewer are in flight, so that the pages held stay within their bytes.
   * Answers false when they already may (the page is past the bound of a body: the sync fails).
   */
  heavier(): boolean {
    if (this.pageCap >= this.pageMaxBytes) return false;
    this.pageCap = this.pageMaxBytes;
    this.most = Math.max(1, Math.floor(this.heldMaxBytes / this.pageMaxBytes));
    this.size = Math.min(this.size, this.most);
    return true;
  }

  /**
   * Whether one more request may be sent now: the window has room, and the bytes held do for one
   * more page at its cap (one page may always come when none is held).
   */
  get hasRoom(): boolean {
    if (this.inFlight >= this.size) return false;
    if (this.inFlight + this.heldPages === 0) return true;
    return (this.inFlight + 1) * this.pageCap + this.heldBytes <= this.heldMaxBytes && this.inFlight + this.heldPages < heldPagesPerPageInFlight * this.most;
  }

  /** A request takes its place in the window (its retries included) until it {@link arrived} or {@link failed}. */
  enter(): void {
    this.inFlight++;
  }

  /** A request's page arrived, weighing `bytes`: it is held until {@link taken}, and counts toward the round's throughput. */
  arrived(bytes: number): void {
    this.inFlight--;
    this.heldPages++;
    this.heldBytes += bytes;
    this.answered();
  }

  /** A request left the window without a page (it failed, or its list stopped). */
  failed(): void {
    this.inFlight--;
  }

  /** The sync took a page held, or dropped it: its bytes are free. */
  taken(bytes: number): void {
    this.heldPages--;
    this.heldBytes -= bytes;
  }

  /** Waits until no `Retry-After` holds the remote's requests back. */
  async clear(signal?: AbortSignal): Promise<void> {
    for (let wait = this.notBefore - performance.now(); wait > 0; wait = this.notBefore - performance.now()) await sleep(wait, signal);
  }

  /**
   * The remote pushed back on a request sent at `sentAt` (`performance.now()`): `retryAfterMs`
   * (what it asked for) holds every request back that long, and the window halves, unless it
   * already halved since that request was sent: the requests in flight together are refused
   * together, and halve it once. A round starts at the new size.
   */
  pushedBack(sentAt: number, retryAfterMs: number | undefined): void {
    const now = performance.now();
    if (retryAfterMs !== undefined) this.notBefore = Math.max(this.notBefore, now + retryAfterMs);
    if (sentAt < this.halvedAt) return;
    this.halvedAt = now;
    this.size = Math.max(1, Math.floor(this.size / 2));
    this.lastRate /= 2;
    this.startRound(now);
  }

  private answered(): void {
    this.roundPages++;
    if (this.roundPages < Math.max(2 * this.size, roundPagesAtLeast)) return;
    const now = performance.now();
    const rate = this.roundPages / Math.max(1, now - this.roundStarted);
    // On a link bound by its latency, one more page in flight adds 1/size to the throughput.
    if (rate >= this.lastRate * (1 + 0.5 / this.size) && this.size < this.most) this.size++;
    this.lastRate = rate;
    this.startRound(now);
  }

  private startRound(now: number): void {
    this.roundStarted = now;
    this.roundPages = 0;
  }
}
