/**
 * Serialized answers, least recently used dropped first past `maxBytes`, all valid for one
 * version of the data: the first lookup at another version empties the cache, so that any
 * write is seen by the next request.
 */
export class AnswerCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  private version = -1;

  constructor(private readonly maxBytes: number) {}

  /** The answer cached under `key` at this version of the data. */
  get(version: number, key: string): Buffer | undefined {
    if (version !== this.version) {
      this.entries.clear();
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

  /** Caches the answer to `key` computed at this version of the data. */
  set(version: number, key: string, body: Buffer): void {
    if (version !== this.version || body.length + key.length > this.maxBytes) return;
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
