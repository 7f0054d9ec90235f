import type { ProcessFigures } from './measured-cli.js';
import { loadAverage, mib } from './support.js';
import { type WritesSource, measureWrites } from './writes-bench.js';

const mebibyte = 2 ** 20;

/** Bytes in MiB, with two decimals below 10 MiB so that a small write reads as what it is. */
const size = (bytes: number) => (bytes < 10 * mebibyte ? `${(bytes / mebibyte).toFixed(2)} MiB` : mib(bytes));

/** The report section of what writes cost: bytes written, time and peak memory of each CLI process. */
export async function reportWrites(source: WritesSource, workDir: string, say: (line?: string) => void): Promise<void> {
  const loadBefore = loadAverage();
  const figures = await measureWrites(source, workDir, (line) => console.log(`… ${line}`));
  const replicaFile = figures.replicaFileBytes;
  /** Each CLI process measured, with the file its percentages are of. */
  const rows: { what: string; measured: ProcessFigures; target: string; file: number }[] = [
    { what: `\`keys create --org ${source.slug}\``, measured: figures.keyCreation, target: '≤ 1 MiB', file: figures.sourceFileBytes },
    { what: `\`orgs enrollment-secret --org ${source.slug} --rotate\``, measured: figures.secretRotation, target: '≤ 1 MiB', file: figures.sourceFileBytes },
    { what: '`sync`, nothing changed on the remote', measured: figures.unchangedSync, target: '≤ 1 MiB, ≤ 0.5 s', file: replicaFile },
    { what: '`sync`, 1 % changed', measured: figures.onePercentSync, target: '≤ 5 % of the file, ≤ 2 s', file: replicaFile },
    { what: '`sync` of a new replica (full), from `serve`', measured: figures.fullSync, target: 'peak ≤ 1.5 × the file', file: replicaFile },
  ];
  const sources = new Set(rows.map(({ measured }) => measured.bytesWrittenSource));
  say(`## Writes`);
  say();
  say(
    `Each write is a CLI process as a user runs it (\`node bin/remediation-console.js ...\`), with bench/io-at-exit.mjs loaded into it: ` +
      `at exit it reads the bytes the process caused to be written to storage (${[...sources].map((s) => `\`${s}\``).join(', ')} of /proc/self/io) ` +
      `and the bytes it passed to write() (\`wchar\`: files, pipes and sockets; the kernel may count the first in pieces larger than the 4 KiB pages a checkpoint writes in place, so it can exceed the second), ` +
      `and its peak resident memory (VmHWM of /proc/self/status). Time is wall time from spawn to exit: node's start and the store's opening included. ` +
      `The key and the secret are written to a copy of the dataset (database file ${mib(figures.sourceFileBytes)}, organization \`${source.slug}\`); ` +
      `the syncs are of a new replica of that copy (its file ${mib(figures.replicaFileBytes)} after them, the base of their percentages), from a \`serve\` of it: ` +
      `the first (full), then one with nothing changed; for 1 % changed the \`serve\` is stopped and an in-process remote takes its port, ` +
      `serving the same generated dataset (seed ${source.seed}) with every hundredth item of each collection changed ` +
      `(${figures.onePercentItems.toLocaleString('en')} items). Load average (1, 5, 15 min) ${loadBefore} before, ${loadAverage()} after.`,
  );
  say();
  say(`| write | time | written to disk | passed to write() | peak resident memory | target |`);
  say(`|---|---|---|---|---|---|`);
  for (const { what, measured, target, file } of rows) {
    const percent = (bytes: number) => ((bytes / file) * 100).toFixed(1);
    say(
      `| ${what} | ${measured.seconds.toFixed(2)} s | ${size(measured.bytesWritten)} (${percent(measured.bytesWritten)} % of the file) | ` +
        `${size(measured.bytesPassed)} (${percent(measured.bytesPassed)} %) | ` +
        `${mib(measured.peakResidentBytes)} (${(measured.peakResidentBytes / file).toFixed(2)} × the file) | ${target} |`,
    );
  }
  say();
  const file = figures.sourceFileBytes;
  say(
    `A bulk change of endpoint context as the console makes it (\`POST /app/orgs/${source.slug}/endpoint-context/bulk\`, an empty filter: every endpoint), ` +
      `on the \`serve\` of the copy before the replica's syncs: time as the client saw it, bytes from the server's /proc/<pid>/io before and after ` +
      `(what it passed to write() includes its answers, /health's too), the longest \`/health\` wait meanwhile (asked every 10 ms).`,
  );
  say();
  say(`| bulk change | endpoints changed | time | written to disk | passed to write() | slowest /health meanwhile | target |`);
  say(`|---|---|---|---|---|---|---|`);
  for (const row of figures.bulkTag) {
    say(
      `| ${row.what} | ${row.changed.toLocaleString('en')} of ${row.matched.toLocaleString('en')} | ${(row.ms / 1000).toFixed(2)} s | ` +
        `${size(row.bytesWritten)} (${((row.bytesWritten / file) * 100).toFixed(1)} % of the file; \`${row.bytesWrittenSource}\`) | ${size(row.bytesPassed)} | ` +
        `${row.healthMaxMs.toFixed(1)} ms | ≤ 1 s, writes what it changes, /health ≤ 100 ms |`,
    );
  }
  say();
  const { coldStart } = figures;
  say(
    `Cold start of \`serve\` on the copy to its first 200 answer: ${coldStart.withoutLogSeconds.toFixed(2)} s with no log, ` +
      `${coldStart.withLogSeconds.toFixed(2)} s with a ${mib(coldStart.logBytes)} change log to replay (the checkpoint threshold: ` +
      `pages spread over the file, written back with the bytes they hold; bench/replay-log.ts). Target ≤ 3 s.`,
  );
  say();
  const { week, afterWeek } = figures;
  const weekFile = afterWeek.fileBytes;
  const total = (pick: (day: ProcessFigures) => number) => week.reduce((sum, day) => sum + pick(day), 0);
  say(
    `A week of daily syncs: after the 1 % sync above, seven more \`sync\` processes of the replica, each after a different 1 % of each collection ` +
      `changed on the in-process remote (every hundredth item, at another residue each day; what the sync before took dated a day back, as a day between syncs leaves it), checkpoints included where they ran. ` +
      `Percentages are of the replica's file after the week (${mib(weekFile)}).`,
  );
  say();
  say(`| day | time | written to disk | passed to write() | peak resident memory |`);
  say(`|---|---|---|---|---|`);
  for (const [day, measured] of week.entries()) {
    say(
      `| ${day + 1} | ${measured.seconds.toFixed(2)} s | ${size(measured.bytesWritten)} (${((measured.bytesWritten / weekFile) * 100).toFixed(1)} %) | ` +
        `${size(measured.bytesPassed)} (${((measured.bytesPassed / weekFile) * 100).toFixed(1)} %) | ${mib(measured.peakResidentBytes)} |`,
    );
  }
  say(
    `| the week | ${total((day) => day.seconds).toFixed(2)} s | ${size(total((day) => day.bytesWritten))} (${(total((day) => day.bytesWritten) / weekFile).toFixed(2)} × the file; target ≤ 0.35 ×) | ` +
      `${size(total((day) => day.bytesPassed))} (${(total((day) => day.bytesPassed) / weekFile).toFixed(2)} ×) | |`,
  );
  say();
  say(
    `Cold start of \`serve\` on the replica after the week, with the change logs it left (${size(afterWeek.logBytes)}): ` +
      `${afterWeek.coldStartSeconds.toFixed(2)} s to its first 200 answer. Target ≤ 3 s.`,
  );
  say();
}
