import crypto from 'node:crypto';
import { files, isMissing } from './engine-files.js';
import { type FileStep, replaceFileSteps } from './file-steps.js';
import { decodeStamp, encodeStamp, type SequenceStamp, stampBytes } from './sequence-stamp.js';

/**
 * What binds the change logs to the snapshot they extend (docs/decisions/the-log-format/the-log-format.md, "The log format"):
 * the sequence of the last log folded into the snapshot, and the salt of its generation, which
 * every log written since carries. Kept in a file of its own beside the snapshot, replaced
 * atomically, rather than in the database header's reserved bytes: SQLite rewrites page 1 from
 * memory at each commit, so the field would have to be patched into every write of that page,
 * and the sequence must move only after the snapshot's fsync, which a page of the snapshot
 * itself cannot order.
 */
export interface SnapshotHeader extends SequenceStamp {
  /** The last log folded into the snapshot; 0 before the first checkpoint of its generation. */
  sequence: number;
  /** 8 random bytes, hex, drawn when the generation starts (a new store, or one from before logs had sequences). */
  salt: string;
  /**
   * The header is of an older build: before logs of statements (`RCSNAP1`) or before delta
   * pages (`RCSNAP2`). The first writable open rewrites it ({@link needsHeaderOfThisBuild})
   * before it writes a log.
   */
  ofAnOlderBuild?: true;
}

/**
 * The header file's magic; a sequence stamp follows (sequence-stamp.ts). A build reads a header
 * of another magic than its own and its predecessors' as damaged and refuses to open the store:
 * `RCSNAP2` since logs of statements (`RCLOG 3`), which a build before them, meeting one as the
 * last log, would remove as torn at its creation; `RCSNAP3` since delta pages (`D` frames),
 * which a build before them would take for a torn tail and cut off, with every transaction
 * after it.
 */
const magic = Buffer.from('RCSNAP3\n');
/** The magics of older builds, still read: before logs of statements, and before delta pages. */
const olderMagics = [Buffer.from('RCSNAP1\n'), Buffer.from('RCSNAP2\n')];

/** The header file of a database file. */
export const snapshotHeaderFile = (databaseFile: string) => `${databaseFile}.header`;

/** A new generation's header: nothing folded yet, a new salt. */
export const newGeneration = (sequence = 0): SnapshotHeader => ({ sequence, salt: crypto.randomBytes(8).toString('hex') });

/** The header beside a database file; undefined when there is none (a new store, or one written before headers). */
export function readSnapshotHeader(databaseFile: string): SnapshotHeader | undefined {
  const file = snapshotHeaderFile(databaseFile);
  let fd: number;
  try {
    fd = files.openSync(file, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  const bytes = Buffer.alloc(stampBytes);
  try {
    files.readSync(fd, bytes, 0, stampBytes, 0);
  } finally {
    files.closeSync(fd);
  }
  for (const olderMagic of olderMagics) {
    const older = decodeStamp(olderMagic, bytes);
    if (older) return { ...older, ofAnOlderBuild: true };
  }
  const stamp = decodeStamp(magic, bytes);
  // Written by rename of a complete, fsynced file: a damaged one is not a crash's doing.
  if (!stamp) throw new Error(`${file} is damaged: it says which change logs the database's snapshot already holds. Restore the data directory from a backup.`);
  return stamp;
}

/** Whether `header` must be written (again) before this build logs: there is none, or it is of an older build. */
export const needsHeaderOfThisBuild = (header: SnapshotHeader | undefined): boolean => header === undefined || header.ofAnOlderBuild === true;

/** Replaces the header beside a database file, atomically (see replaceFileSteps). */
export function writeSnapshotHeaderSteps(databaseFile: string, header: SnapshotHeader): Generator<FileStep, void, void> {
  return replaceFileSteps(snapshotHeaderFile(databaseFile), encodeStamp(magic, header));
}
