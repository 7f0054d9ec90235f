/** Keys asked once and not yet cached that are remembered; past it, the memory starts again empty. */
const maxCandidates = 50_000;

/**
 * Serialized answers, least recently used dropped first past `maxBytes`, all valid for one
 * version of the data: the first lookup at another version empties the cache, so that any
 * write is seen by the next request. An answer is kept only when it is asked a second time:
 * a client reading every page once (a sync, a scan) then does not push out the pages that
 * clients poll.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Buffer>();
  private readonly candidates = new Set<string>();
  private bytes = 0;
  private version = -1;

  constructor(private readonly maxBytes: number) {}

  /** The answer cached under `key` at this version of the data. */
  get(version: number, key: string): Buffer | undefined {
    if (version !== this.version) {
      this.entries.clear();
      this.candidates.clear();
      this.bytes = 0;
      this.version = version;
      return undefined;
    }
    const body = this.entries.get(key);
    if (body) {
      // Map keeps insertion order: moving a hit to the end keeps the least recent first.
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  /** Offers the answer to `key` computed at this version of the data; kept from its second time. */
  set(version: number, key: string, body: Buffer): void {
    if (version !== this.version || body.length + key.length > this.maxBytes) return;
    if (!this.candidates.delete(key)) {
      if (this.candidates.size >= maxCandidates) this.candidates.clear();
      this.candidates.add(key);
      return;
    }
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.entries.set(key, body);
    this.bytes += body.length + key.length;
    for (const [oldest, oldBody] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, oldBody);
    }
  }

  /** The bytes held, bodies and keys. */
  get size(): number {
    return this.bytes;
  }

  private remove(key: string, body: Buffer): void {
    this.entries.delete(key);
    this.bytes -= body.length + key.length;
  }
}
