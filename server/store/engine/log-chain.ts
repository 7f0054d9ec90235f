import type { ScannedLog } from './change-log-reader.js';
import type { SnapshotHeader } from './snapshot-header.js';

/** A log found beside the snapshot: its number (from its name) and what a scan found in it. */
export interface ListedLog {
  number: number;
  file: string;
  scan: ScannedLog;
}

/** What an open does with each log found (see {@link chainLogs}). */
export interface LogChain<T extends ListedLog> {
  /** The logs that extend the snapshot, in order: replayed. */
  replay: T[];
  /** Logs the snapshot already holds, and one torn as it was created: removed by the lock holder, oldest first. */
  stale: T[];
  /** Logs past a gap, or of another generation: never replayed, kept aside by the lock holder. */
  setAside: T[];
  /** The sequence the snapshot holds (the header's, or for a store from before headers, the one before its first log). */
  base: number;
  /** Why logs were set aside. */
  warning?: string;
}

/**
 * Binds the logs to the snapshot they extend (docs/decisions/the-log-format/the-log-format.md, "The log format"): a log whose
 * sequence is not newer than the header's was folded already (a crash mid-removal left it) and
 * is stale; the next ones must follow each other from there, with the header's salt. A gap (a
 * log lost, or removed by hand) stops the replay there: replaying what follows would give a
 * state that never was. A data directory from before headers has logs without sequence or
 * salt (`legacy`): they chain by their numbers from the first one.
 */
export function chainLogs<T extends ListedLog>(header: SnapshotHeader | undefined, listed: readonly T[]): LogChain<T> {
  const legacyStart = listed.find((log) => log.scan.header === 'legacy')?.number;
  const base = header?.sequence ?? (legacyStart === undefined ? 0 : legacyStart - 1);
  const chain: LogChain<T> = { replay: [], stale: [], setAside: [], base };
  for (const [i, log] of listed.entries()) {
    const { header: logHeader } = log.scan;
    const sequence = logHeader === 'legacy' ? log.number : logHeader?.sequence;
    // Folded already; or created last and torn before its header was durable: it never held a transaction.
    if (log.number <= base || (logHeader === undefined && i === listed.length - 1)) {
      chain.stale.push(log);
      continue;
    }
    const expected = base + chain.replay.length + 1;
    const problem =
      logHeader === undefined
        ? 'its header cannot be read'
        : logHeader !== 'legacy' && (!header || logHeader.salt !== header.salt)
          ? 'it extends another snapshot (its salt is not the snapshot header’s)'
          : sequence !== log.number
            ? `its header says sequence ${sequence}`
            : sequence !== expected
              ? `the log of sequence ${expected} is missing`
              : undefined;
    if (problem === undefined) {
      chain.replay.push(log);
      continue;
    }
    chain.setAside = listed.slice(i);
    chain.warning =
      `The store's change logs stop at sequence ${expected - 1}: ${log.file} and the ${chain.setAside.length - 1} after it are not replayed, as ${problem}. ` +
      `Their writes are not in the store; the files are kept with the suffix ".unreplayed".`;
    break;
  }
  return chain;
}
