/**
 * Runs `work` with the event loop kept alive until it settles. Whenever the loop has nothing of
 * libuv's to wait for while a promise waits on V8 itself (undici's first fetch compiles its HTTP
 * parser with `WebAssembly.compile`), Node first waits for every task on V8's background threads
 * to end (`NodePlatform::DrainTasks`), among them TurboFan compiling SQLite's largest functions:
 * a `sync` with nothing changed waited 100 to 240 ms there, its main thread idle on a futex
 * (docs/decisions/tests-docs-and-ci/a-command-keeps-its-event-loop-alive.md).
 */
export async function withLoopAlive<T>(work: () => Promise<T>): Promise<T> {
  const alive = setInterval(() => undefined, 2 ** 30);
  try {
    return await work();
  } finally {
    clearInterval(alive);
  }
}
