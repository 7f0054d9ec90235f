// A process that takes a data directory's lock and keeps it, for the lock's tests: run it with
// `node --import tsx lock-holder.ts <data dir> <command> [busy]`. It prints `locked <pid>` once it
// holds the lock, or `refused <message>` when another process holds it. With `busy` its event loop
// then stops (Atomics.wait, no CPU), as a holder deep in a computation would.
import { DataDirectoryLockedError, lockDataDirectory } from '../../store/engine/data-directory-lock.js';

const [dataDir, command, mode] = process.argv.slice(2);
if (!dataDir || !command) throw new Error('usage: lock-holder.ts <data dir> <command> [busy]');
try {
  await lockDataDirectory(dataDir, command);
} catch (error) {
  if (!(error instanceof DataDirectoryLockedError)) throw error;
  process.stdout.write(`refused ${error.message}\n`);
  process.exit(3);
}
process.stdout.write(`locked ${process.pid}\n`);
if (mode === 'busy') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
setInterval(() => {}, 1 << 30);
