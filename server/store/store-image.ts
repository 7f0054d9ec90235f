import fs from 'node:fs';
import { applyFrames, extentAfter, logFiles, parseLog } from './change-log.js';
import { readDatabaseFile } from './database-file.js';

/** A log found beside the snapshot, with its committed size (what follows is a torn tail). */
export interface FoundLog {
  number: number;
  file: string;
  committedBytes: number;
  size: number;
}

/** The database as the snapshot and its logs make it. */
export interface StoreImage {
  /** The file's bytes and `reserveBytes` zeros after them; undefined for a store not created yet. */
  bytes: Uint8Array | undefined;
  logs: FoundLog[];
}

/**
 * Reads the snapshot and replays its logs' committed transactions onto its bytes. A reader that
 * does not hold the lock retries when a checkpoint of a log it had not seen may have changed
 * the snapshot while it read it (a log appeared after the ones it listed).
 */
export async function readStoreImage(file: string, { reserveBytes = 0, holdsLock }: { reserveBytes?: number; holdsLock: boolean }): Promise<StoreImage> {
  for (let attempt = 0; ; attempt++) {
    const listed = logFiles(file);
    // Open first: a checkpoint that removes one of these logs meanwhile leaves it readable here.
    const descriptors = listed.map(({ file: log }) => fs.openSync(log, 'r'));
    let snapshot: Uint8Array | undefined;
    const reads: ReturnType<typeof parseLog>[] = [];
    const sizes: number[] = [];
    try {
      snapshot = await readDatabaseFile(file, reserveBytes);
      for (const fd of descriptors) {
        const bytes = fs.readFileSync(fd);
        sizes.push(bytes.length);
        reads.push(parseLog(bytes));
      }
    } finally {
      for (const fd of descriptors) fs.closeSync(fd);
    }
    const newest = listed.at(-1)?.number ?? 0;
    if (!holdsLock && attempt < 20 && (logFiles(file).at(-1)?.number ?? 0) > newest + 1) continue;
    const logs = listed.map((log, i) => ({ ...log, committedBytes: reads[i]!.committedBytes, size: sizes[i]! }));
    const frames = reads.flatMap((read) => read.transactions.flat());
    if (frames.length === 0) return { bytes: snapshot, logs };
    const baseSize = snapshot ? snapshot.length - reserveBytes : 0;
    const extent = extentAfter(baseSize, frames);
    let image = snapshot ?? new Uint8Array(0);
    if (extent.largest + reserveBytes > image.length) {
      const grown = Buffer.alloc(extent.largest + reserveBytes);
      grown.set(image.subarray(0, baseSize));
      image = grown;
    }
    const size = applyFrames(image, baseSize, frames);
    return { bytes: image.subarray(0, size + reserveBytes), logs };
  }
}
