import type { FileWriteSink } from './file-write-tap.js';

/** Pages held here past this many bytes are handed on, even inside a transaction. */
const holdBytes = 32 * 2 ** 20;

/**
 * The writes SQLite made since they were last handed to the change log, each page once in its
 * last version. Writes that need not be durable one by one (a sync's staged pages) are held
 * here across transactions, so that a page written again at every one of them (a table's last
 * leaf, an index's pages) is logged once per group, not once per write.
 *
 * Held pages never overlap, so their order does not matter; a write that is not one whole
 * aligned page, and a truncation, first hand on what is held, keeping the order of the writes.
 */
export class PendingPages {
  private readonly pages = new Map<number, Buffer>();
  private pageBytes: number | undefined;
  private heldBytes = 0;

  constructor(private readonly sink: FileWriteSink) {}

  /** The bytes held. */
  get bytes(): number {
    return this.heldBytes;
  }

  write(offset: number, bytes: Uint8Array): void {
    if (bytes.length !== this.pageBytes || offset % bytes.length !== 0) {
      this.handOn();
      if (bytes.length === 0 || offset % bytes.length !== 0) {
        this.pageBytes = undefined;
        this.sink.write(offset, bytes);
        return;
      }
      this.pageBytes = bytes.length;
    }
    const page = this.pages.get(offset);
    if (page) {
      page.set(bytes);
      return;
    }
    this.pages.set(offset, Buffer.from(bytes));
    this.heldBytes += bytes.length;
    if (this.heldBytes >= holdBytes) this.handOn();
  }

  truncate(size: number): void {
    this.handOn();
    this.sink.truncate(size);
  }

  /** Hands every held page to the sink. */
  handOn(): void {
    for (const [offset, page] of this.pages) this.sink.write(offset, page);
    this.pages.clear();
    this.heldBytes = 0;
  }
}
