/**
 * A bulk change of endpoint context as the console makes it (issue 28): `POST
 * /app/orgs/:slug/endpoint-context/bulk` on a running `serve`, for every endpoint of the
 * organization (an empty filter), timed by the client while `/health` is asked every 10 ms, with
 * the bytes the server process wrote meanwhile read from its /proc/<pid>/io. Part of the Writes
 * section (writes-bench.ts), on the copy of the dataset it serves.
 */
import fs from 'node:fs';
import { pingHealth, waitFigures } from './health-pings.js';

/** One bulk change measured. */
export interface BulkChangeFigures {
  what: string;
  /** Endpoints the filter selected, and those the change changed. */
  matched: number;
  changed: number;
  ms: number;
  /** Bytes the server caused to be written to storage (`write_bytes`), or passed to write() (`wchar`) where the kernel counts no `write_bytes`. */
  bytesWritten: number;
  bytesWrittenSource: 'write_bytes' | 'wchar';
  /** Bytes it passed to write(): files and sockets (its answers, the /health ones included). */
  bytesPassed: number;
  /** The longest a `/health` request waited meanwhile. */
  healthMaxMs: number;
}

/** The kernel's I/O counters of a running process. */
export function ioOf(pid: number): Record<string, number> {
  const lines = fs.readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n');
  return Object.fromEntries(lines.map((line) => line.split(':')).map(([name, value]) => [name!.trim(), Number(value)]));
}

/** A tag added to every endpoint, then removed from every one, each one bulk change. */
export async function measureBulkTag(serve: { url: string; consoleToken: string; pid: number }, slug: string): Promise<BulkChangeFigures[]> {
  const change = async (what: string, body: object): Promise<BulkChangeFigures> => {
    const pings = pingHealth(serve.url);
    const before = ioOf(serve.pid);
    const started = performance.now();
    const response = await fetch(`${serve.url}/app/orgs/${slug}/endpoint-context/bulk`, {
      method: 'POST',
      headers: { 'x-console-script-token': serve.consoleToken, 'content-type': 'application/json', origin: serve.url },
      body: JSON.stringify({ filter: '', ...body }),
    });
    const answer = (await response.json()) as { matched: number; changed: number };
    const ms = performance.now() - started;
    const after = ioOf(serve.pid);
    const { max } = waitFigures(await pings.stop());
    if (response.status !== 200) throw new Error(`bulk change: ${response.status} ${JSON.stringify(answer)}`);
    const counted = after.write_bytes !== undefined;
    const written = counted ? after.write_bytes! - before.write_bytes! : after.wchar! - before.wchar!;
    return {
      what,
      matched: answer.matched,
      changed: answer.changed,
      ms,
      bytesWritten: written,
      bytesWrittenSource: counted ? 'write_bytes' : 'wchar',
      bytesPassed: after.wchar! - before.wchar!,
      healthMaxMs: max,
    };
  };
  return [await change('add a tag to every endpoint', { add_tags: ['bench-every'] }), await change('remove it from every endpoint', { remove_tags: ['bench-every'] })];
}
