import v8 from 'node:v8';

/**
 * V8's heap sizing for every command but `serve`, set for the rest of the process as the command
 * line starts (command-line.ts `main`): its young generation is never grown past its size then
 * (`--semi-space-growth-factor=1`: semi-spaces of 1 or 2 MiB, where V8 grows them up to 16 MiB;
 * set once a command's modules had loaded, they were 16 MiB already), and its old generation is
 * collected once it has doubled since the last collection (`--heap-growing-percent=100`; V8
 * otherwise lets it reach about four times what it held). Both flags are read each time V8
 * sizes the heap, so setting them at run time takes effect (the test checks it, across a
 * thread's start; `--max-semi-space-size` is read once, at the start).
 *
 * A command's peak resident memory is the database file sql.js holds plus the process; the
 * heap's slack was 100–130 MiB of it under a full sync of `large`, whose peak the issue asks
 * under 1.5 × the data. A command answers no request, so more frequent collections cost it only
 * their time (docs/decisions/sync/a-command-keeps-its-heap-small.md). `serve` and the app keep
 * V8's defaults: their requests' rates come first.
 */
export function keepHeapSmall(): void {
  setFlags();
  // A thread's start sets V8's flags back to their defaults (Node 20; a sync's fetching thread
  // starts with each pull): they are set again once it runs.
  process.on('worker', (worker) => worker.once('online', setFlags));
}

function setFlags(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--heap-growing-percent=100');
}
