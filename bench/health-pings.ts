/** One `/health` round trip: when it was sent and answered (performance.now()), and how long it waited. */
export interface HealthPing {
  sent: number;
  answered: number;
  ms: number;
}

/**
 * Asks `/health` of a server every 10 ms (10 ms after each answer) until `stop` is called,
 * which resolves with every round trip. `/health` costs nothing to answer, so its round trip
 * is how long a request waited for the thread that answers requests.
 */
export function pingHealth(url: string): { stop: () => Promise<HealthPing[]> } {
  const pings: HealthPing[] = [];
  let stopped = false;
  const pinging = (async () => {
    while (!stopped) {
      const sent = performance.now();
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      const answered = performance.now();
      if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
      pings.push({ sent, answered, ms: answered - sent });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await pinging;
      return pings;
    },
  };
}

/** The p99 and maximum of some waits, in ms (NaN for none). */
export function waitFigures(pings: HealthPing[]): { count: number; p99: number; max: number } {
  const sorted = pings.map((ping) => ping.ms).sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
  return { count: sorted.length, p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
}
