/**
 * How long `/health` waited while a request was answered: asked every 10 ms meanwhile, its
 * slowest round trip says how long the server's thread was held (issue 33: at most 100 ms).
 */
export async function whileHealthAsked<T>(url: string, work: () => Promise<T>): Promise<{ answer: T; ms: number; healthMaxMs: number }> {
  let done = false;
  let healthMaxMs = 0;
  const asking = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${url}/health`).then((response) => response.arrayBuffer());
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  try {
    const answer = await work();
    return { answer, ms: performance.now() - started, healthMaxMs };
  } finally {
    done = true;
    await asking;
  }
}
