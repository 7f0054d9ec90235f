import { applyFrames, extentAfter, isPageFrame, type LogFrame, type LogFrameRef, logFiles, type PageFrameRef } from './change-log.js';
import { DeltaBodies, framesWithBytes, type PageFrameRefOfWrite, readFrameBytes, type ScannedLog, scanLogFile, toEnd } from './change-log-reader.js';
import { type DatabaseFileBytes, readDatabaseFile, roomAfter, roomyBuffer } from './database-file.js';
import { files, isMissing } from './engine-files.js';
import { chainLogs, type LogChain } from './log-chain.js';
import { readSnapshotHeader, type SnapshotHeader } from './snapshot-header.js';
import { basesOverwritten, type DeltaPages, lastDeltas, SnapshotBase } from './page-delta.js';
import { SnapshotPages } from './snapshot-pages.js';
import { decodeStatement, type RecordedStatement } from './statement-codec.js';

/** A transaction of statements a log recorded, to replay at open (Database.open). */
export interface RecordedTransaction {
  statements: RecordedStatement[];
}

/** A log replayed at open, with its committed size (what follows is a torn tail). */
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
  /** The file's size in `bytes` (the rest is room). */
  fileBytes: number;
  /** The snapshot's header; undefined for a new store or one from before headers. */
  header: SnapshotHeader | undefined;
  /** The sequence the snapshot holds (log-chain.ts): the replayed logs follow it. */
  base: number;
  /** The logs replayed, in order. */
  logs: FoundLog[];
  /** Logs the snapshot holds already: the lock holder removes them, oldest first. */
  stale: string[];
  /** Logs past a gap or of another snapshot: never replayed; the lock holder keeps them aside. */
  setAside: string[];
  /** Why logs were set aside. */
  warning?: string;
  /** The pages whose last version in the logs is a delta (page-delta.ts), by offset, and their size: logged whole before the next checkpoint. */
  deltaPages: DeltaPages;
  /** With `onDemand`: the snapshot's bytes not in `bytes` yet, read there as they are asked for. */
  pages?: SnapshotPages;
  /**
   * The transactions of statements recorded after the logs' last page or fold transaction, in
   * order: the open replays them on `bytes` (those before it are in its pages already).
   */
  statements: RecordedTransaction[];
}

/** A log found beside the snapshot, open, and scanned. */
interface OpenLog {
  number: number;
  file: string;
  fd: number;
  scan: ScannedLog;
}

/**
 * The snapshot's header and its logs, opened and scanned, bound into a chain (log-chain.ts).
 * The header is read first: a checkpoint moves it only after the snapshot holds what it says,
 * so a reader that then lists the logs replays every log the snapshot may lack.
 */
function openLogs(file: string): { header: SnapshotHeader | undefined; chain: LogChain<OpenLog>; opened: OpenLog[] } {
  const header = readSnapshotHeader(file);
  const opened: OpenLog[] = [];
  try {
    for (const { number, file: log } of logFiles(file)) {
      // Open first: a checkpoint that removes one of these logs meanwhile leaves it readable here.
      let fd: number;
      try {
        fd = files.openSync(log, 'r');
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      try {
        opened.push({ number, file: log, fd, scan: toEnd(scanLogFile(fd)) });
      } catch (error) {
        files.closeSync(fd);
        throw error;
      }
    }
  } catch (error) {
    closeLogs(opened);
    throw error;
  }
  return { header, chain: chainLogs(header, opened), opened };
}

const closeLogs = (opened: OpenLog[]) => {
  for (const { fd } of opened) files.closeSync(fd);
};

/**
 * The logs' transactions split as an open applies them: the pages of every page or fold
 * transaction, in order, then the statement transactions after the last of those. A page
 * transaction right after statements (not a fold) is refused: its pages were taken on another
 * file than the one the statements make again, and the writer never logs one.
 */
function splitTransactions(logs: readonly OpenLog[]): { pages: { fd: number; transactions: PageFrameRef[][] }[]; statements: { fd: number; frames: LogFrameRef[] }[] } {
  const pages: { fd: number; transactions: PageFrameRef[][] }[] = [];
  let statements: { fd: number; frames: LogFrameRef[] }[] = [];
  for (const { fd, file, scan } of logs) {
    const ofLog: PageFrameRef[][] = [];
    for (const frames of scan.transactions) {
      if (frames.some((frame) => frame.kind === 'statement')) {
        statements.push({ fd, frames });
        continue;
      }
      const isFold = frames[0]?.kind === 'truncate' && 'fold' in frames[0];
      if (statements.length > 0 && !isFold) throw new Error(`${file} logs pages after statements without a fold between them: it cannot be replayed`);
      statements = [];
      ofLog.push(frames.filter(isPageFrame));
    }
    pages.push({ fd, transactions: ofLog });
  }
  return { pages, statements };
}

/** The statement transactions, read and decoded. */
function readStatements(statements: { fd: number; frames: LogFrameRef[] }[]): RecordedTransaction[] {
  return statements.map(({ fd, frames }) => ({
    statements: frames.flatMap((frame) => (frame.kind === 'statement' ? [decodeStatement(readFrameBytes(fd, frame))] : [])),
  }));
}

/** What an image says of its logs besides its bytes. */
function imageOfLogs(header: SnapshotHeader | undefined, chain: LogChain<OpenLog>): Omit<StoreImage, 'bytes' | 'fileBytes' | 'pages' | 'statements' | 'deltaPages'> {
  return {
    header,
    base: chain.base,
    logs: chain.replay.map(({ number, file, fd, scan }) => ({ number, file, committedBytes: scan.committedBytes, size: files.fstatSync(fd).size })),
    stale: chain.stale.map((log) => log.file),
    setAside: chain.setAside.map((log) => log.file),
    ...(chain.warning === undefined ? {} : { warning: chain.warning }),
  };
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
    const { header, chain, opened } = openLogs(file);
    const base = SnapshotBase.ofFile(file);
    try {
      const snapshot = await readDatabaseFile(file, reserveBytes, { forWriting: holdsLock });
      const { pages, statements } = splitTransactions(chain.replay);
      const frames = committedFrames(pages);
      const deltas = lastDeltas(frames);
      const image = replay(snapshot, reserveBytes, pages, frames, base, deltas);
      const newest = opened.at(-1)?.number ?? 0;
      // A checkpoint ran meanwhile: the snapshot may hold logs not listed, or the logs after the header read are gone.
      const moved = chain.setAside.length > 0 && readSnapshotHeader(file)?.sequence !== header?.sequence;
      // A checkpoint starts a log before it writes the snapshot: deltas read against the snapshot since then may have met its new bytes.
      const raced = (logFiles(file).at(-1)?.number ?? 0) > newest + (deltas.size > 0 ? 0 : 1) || moved;
      if (!holdsLock && attempt < 20 && raced) continue;
      return { ...image, ...imageOfLogs(header, chain), deltaPages: deltaPagesOf(deltas), statements: readStatements(statements) };
    } finally {
      base.close();
      closeLogs(opened);
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
    snapshot = files.openSync(file, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  let opened: OpenLog[] = [];
  let pages: SnapshotPages | undefined;
  try {
    const snapshotBytes = files.fstatSync(snapshot).size;
    if (snapshotBytes === 0) {
      files.closeSync(snapshot);
      return undefined;
    }
    const { header, chain, opened: all } = openLogs(file);
    opened = all;
    const split = splitTransactions(chain.replay);
    const frames = committedFrames(split.pages);
    const extent = extentAfter(snapshotBytes, frames);
    const room = roomAfter(snapshotBytes, reserveBytes, true);
    pages = SnapshotPages.ofFile(snapshot, roomyBuffer(extent.largest, room), snapshotBytes);
    const base = SnapshotBase.ofDescriptor(snapshot);
    const deltas = lastDeltas(frames);
    let size = snapshotBytes;
    // A page's last delta is applied when SQLite first reads the page (SnapshotPages.deferDelta), after every other frame: nothing after it changes its page.
    const onDemand = pages;
    const deferred = (frame: PageFrameRefOfWrite) => deltas.get(frame.offset) === frame && onDemand.defers(frame.offset, frame.length);
    for (const { fd, transactions } of split.pages) {
      size = applyFrames(pages.image, size, notedBy(pages, framesWithBytes(fd, transactions, base, (frame) => deltas.get(frame.offset) !== frame || deferred(frame))));
    }
    for (const { fd, transactions } of split.pages) {
      const bodies = new DeltaBodies(fd);
      for (const frame of transactions.flat()) if (frame.kind === 'write' && deferred(frame)) pages.deferDelta(frame.offset, Uint8Array.from(bodies.of(frame)));
    }
    pages.beforeRead(0, 100);
    return {
      bytes: pages.image.subarray(0, size + room),
      fileBytes: size,
      ...imageOfLogs(header, chain),
      deltaPages: deltaPagesOf(deltas),
      pages,
      statements: readStatements(split.statements),
    };
  } catch (error) {
    if (pages) pages.close();
    else files.closeSync(snapshot);
    throw error;
  } finally {
    closeLogs(opened);
  }
}

/** The pages `deltas` gives their last version. */
function deltaPagesOf(deltas: ReturnType<typeof lastDeltas>): DeltaPages {
  const offsets = [...deltas.keys()];
  return { offsets, pageBytes: offsets.length === 0 ? 0 : deltas.get(offsets[0]!)!.length };
}

/** The page frames of the logs' committed transactions, in order. */
const committedFrames = (logs: { transactions: PageFrameRef[][] }[]) => logs.flatMap(({ transactions }) => transactions.flat());

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
 * time (a delta's read against `base`, only when `deltas` has it), and at least `reserveBytes`
 * (or the room the snapshot was read with) after them.
 */
function replay(
  snapshot: DatabaseFileBytes | undefined,
  reserveBytes: number,
  logs: { fd: number; transactions: PageFrameRef[][] }[],
  /** The logs' page frames, in order (committedFrames). */
  refs: readonly PageFrameRef[],
  base: SnapshotBase,
  deltas: ReturnType<typeof lastDeltas>,
): { bytes: Uint8Array | undefined; fileBytes: number } {
  if (refs.length === 0) return { bytes: snapshot?.bytes, fileBytes: snapshot?.fileBytes ?? 0 };
  const baseSize = snapshot?.fileBytes ?? 0;
  const room = snapshot ? Math.max(reserveBytes, snapshot.bytes.length - baseSize) : reserveBytes;
  const extent = extentAfter(baseSize, refs);
  let image = snapshot?.bytes ?? new Uint8Array(0);
  if (extent.largest + room > image.length) {
    const grown = roomyBuffer(extent.largest, room);
    grown.set(image.subarray(0, baseSize));
    image = grown;
  }
  // A delta's base is the snapshot's bytes, in the image until a frame before it changes them (then read from the file).
  const overwritten = basesOverwritten(refs, deltas);
  const snapshotBytes = image;
  const imageBase = { read: (offset: number, length: number) => (overwritten.has(offset) ? base.read(offset, length) : snapshotBytes.subarray(offset, offset + length)) };
  let size = baseSize;
  for (const { fd, transactions } of logs) size = applyFrames(image, size, framesWithBytes(fd, transactions, imageBase, (frame) => deltas.get(frame.offset) !== frame));
  return { bytes: image.subarray(0, size + room), fileBytes: size };
}
