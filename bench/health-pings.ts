import { requestAlone } from './support.js';

/** One `/health` round trip: when it was sent and answered (performance.now()), and how long it waited. */
export interface HealthPing {
  sent: number;
  answered: number;
  ms: number;
}

/**
 * Asks `/health` of a server every 10 ms (10 ms after each answer) until `stop` is called,
 * which resolves with every round trip. `/health` costs nothing to answer, so its round trip
 * is how long a request waited for the thread that answers requests. Each is sent on a
 * connection of its own (see requestAlone).
 */
export function pingHealth(url: string): { stop: () => Promise<HealthPing[]> } {
  const pings: HealthPing[] = [];
  let stopped = false;
  const pinging = (async () => {
    while (!stopped) {
      const sent = performance.now();
      const { status } = await requestAlone(`${url}/health`);
      if (status !== 200) throw new Error(`/health answered ${status}`);
      const answered = performance.now();
      pings.push({ sent, answered, ms: answered - sent });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  // A failure is reported by stop(); until then it must not end the process as unhandled.
  pinging.catch(() => undefined);
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
