import type { SyncProgress } from '../../contracts/console/sync.js';

const barWidth = 24;

function describe(progress: SyncProgress): string {
  if (progress.phase === 'checking') return `${progress.org}: asking the remote`;
  if (progress.phase === 'writing') return `${progress.org}: writing the replica`;
  return `${progress.org}: ${progress.mode ?? ''} ${progress.collection ?? ''}`;
}

/**
 * Prints a sync's progress: on a terminal, one line redrawn in place with a bar; otherwise
 * (logs, pipes) a plain line per phase and finished collection, so a log stays short.
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stdout): { update(progress: SyncProgress): void; done(): void } {
  let lastPlain = '';
  let drawn = false;
  return {
    update(progress) {
      if (stream.isTTY) {
        let line = describe(progress);
        if (progress.phase === 'fetching' && progress.total > 0) {
          const filled = Math.round((progress.fetched / progress.total) * barWidth);
          line += ` [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${progress.fetched}/${progress.total}`;
        }
        const width = stream.columns ?? 80;
        stream.write(`\r${line.slice(0, width - 1).padEnd(width - 1)}`);
        drawn = true;
        return;
      }
      const finished = progress.phase !== 'fetching' || (progress.total > 0 && progress.fetched >= progress.total);
      const line = progress.phase === 'fetching' ? `${describe(progress)}: ${progress.fetched} of ${progress.total}` : describe(progress);
      if (finished && line !== lastPlain) stream.write(`${line}\n`);
      lastPlain = line;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
