import fs from 'node:fs';
import { applyFrames, extentAfter, type LogFrame, type LogFrameRef, logFiles } from './change-log.js';
import { framesWithBytes, type ScannedLog, scanLogFile, toEnd } from './change-log-reader.js';
import { type DatabaseFileBytes, readDatabaseFile, roomAfter, roomyBuffer } from './database-file.js';
import { SnapshotPages } from './snapshot-pages.js';

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
  /** With `onDemand`: the snapshot's bytes not in `bytes` yet, read there as they are asked for. */
  pages?: SnapshotPages;
}

/**
 * Reads the snapshot and replays its logs' committed transactions onto its bytes. A reader that
 * does not hold the lock retries when a checkpoint of a log it had not seen may have changed
 * the snapshot while it read it (a log appeared after the ones it listed).
 */
export async function readStoreImage(
  file: string,
  { reserveBytes = 0, holdsLock, onDemand = false }: { reserveBytes?: number; holdsLock: boolean; onDemand?: boolean },
): Promise<StoreImage> {
  // Without the lock, a checkpoint may change the snapshot at any time: it is read whole at once.
  const onDemandImage = onDemand && holdsLock ? imageOnDemand(file, reserveBytes) : undefined;
  if (onDemandImage) return onDemandImage;
  for (let attempt = 0; ; attempt++) {
    const listed = logFiles(file);
    // Open first: a checkpoint that removes one of these logs meanwhile leaves it readable here.
    const descriptors = listed.map(({ file: log }) => fs.openSync(log, 'r'));
    try {
      const snapshot = await readDatabaseFile(file, reserveBytes, { forWriting: holdsLock });
      const scans = descriptors.map((fd) => toEnd(scanLogFile(fd)));
      const newest = listed.at(-1)?.number ?? 0;
      if (!holdsLock && attempt < 20 && (logFiles(file).at(-1)?.number ?? 0) > newest + 1) continue;
      return { bytes: replay(snapshot, reserveBytes, descriptors, scans), logs: foundLogs(listed, descriptors, scans) };
    } finally {
      for (const fd of descriptors) fs.closeSync(fd);
    }
  }
}

/**
 * The image of a store whose lock this process holds, its snapshot read on demand
 * (snapshot-pages.ts): the logs' committed transactions are applied now, each page they write
 * then never read from the snapshot, and the first pages (the header SQLite reads at open) read.
 * Undefined without a snapshot to read (a new store: its logs, if any, are read whole).
 */
function imageOnDemand(file: string, reserveBytes: number): StoreImage | undefined {
  let snapshot: number;
  try {
    snapshot = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const listed = logFiles(file);
  const descriptors: number[] = [];
  let pages: SnapshotPages | undefined;
  try {
    const snapshotBytes = fs.fstatSync(snapshot).size;
    if (snapshotBytes === 0) {
      fs.closeSync(snapshot);
      return undefined;
    }
    for (const { file: log } of listed) descriptors.push(fs.openSync(log, 'r'));
    const scans = descriptors.map((fd) => toEnd(scanLogFile(fd)));
    const extent = extentAfter(snapshotBytes, committedFrames(scans));
    const room = roomAfter(snapshotBytes, reserveBytes, true);
    pages = SnapshotPages.ofFile(snapshot, roomyBuffer(extent.largest, room), snapshotBytes);
    let size = snapshotBytes;
    for (const [i, scan] of scans.entries()) size = applyFrames(pages.image, size, notedBy(pages, framesWithBytes(descriptors[i]!, scan.transactions)));
    pages.beforeRead(0, 100);
    return { bytes: pages.image.subarray(0, size + room), logs: foundLogs(listed, descriptors, scans), pages };
  } catch (error) {
    if (pages) pages.close();
    else fs.closeSync(snapshot);
    throw error;
  } finally {
    for (const fd of descriptors) fs.closeSync(fd);
  }
}

/** The logs listed, with what their scans found committed. */
function foundLogs(listed: { number: number; file: string }[], descriptors: number[], scans: ScannedLog[]): FoundLog[] {
  return listed.map((log, i) => ({ ...log, committedBytes: scans[i]!.committedBytes, size: fs.fstatSync(descriptors[i]!).size }));
}

/** The frames of the logs' committed transactions, in order. */
const committedFrames = (scans: ScannedLog[]) => scans.flatMap((scan): LogFrameRef[] => scan.transactions.flat());

/** A log's frames, each told to `pages` before it is applied to their image. */
function* notedBy(pages: SnapshotPages, frames: Iterable<LogFrame>): Iterable<LogFrame> {
  for (const frame of frames) {
    if (frame.kind === 'write') pages.beforeWrite(frame.offset, frame.bytes.length);
    else pages.beforeTruncateOfImage(frame.size);
    yield frame;
  }
}

/**
 * The snapshot with the logs' committed transactions applied, their bytes read a frame at a
 * time, and at least `reserveBytes` (or the room the snapshot was read with) after them.
 */
function replay(snapshot: DatabaseFileBytes | undefined, reserveBytes: number, descriptors: number[], scans: ScannedLog[]): Uint8Array | undefined {
  const refs = committedFrames(scans);
  if (refs.length === 0) return snapshot?.bytes;
  const baseSize = snapshot?.fileBytes ?? 0;
  const room = snapshot ? Math.max(reserveBytes, snapshot.bytes.length - baseSize) : reserveBytes;
  const extent = extentAfter(baseSize, refs);
  let image = snapshot?.bytes ?? new Uint8Array(0);
  if (extent.largest + room > image.length) {
    const grown = roomyBuffer(extent.largest, room);
    grown.set(image.subarray(0, baseSize));
    image = grown;
  }
  let size = baseSize;
  for (const [i, scan] of scans.entries()) size = applyFrames(image, size, framesWithBytes(descriptors[i]!, scan.transactions));
  return image.subarray(0, size + room);
}
