import { BodyTooLargeError, formatBytes, readBodyCapped } from '../remote/read-body-capped.js';
import { type RemoteTenant, RemoteUnreachableError, remoteGet, timedOut } from '../remote/remote-tenant.js';
import { RemoteRefusedError, RetryableRequestError, SyncFailedError, remoteFailureMessage } from './sync-errors.js';
import { type SyncPolicy, backoffDelay, retryAfterDelay, sleep } from './sync-policy.js';
import type { PageWindow } from './page-window.js';

/** Attempts of a request that finds nothing listening at the remote's address: one short retry, for a remote that restarts. */
const attemptsWhenNothingListens = 2;

/** One page of a list as received: items not yet validated. */
export interface RawPage {
  data: unknown[];
  total: number;
  /** What its body weighed. */
  bytes: number;
}

/** A page weighed more than its cap (remote-bounds.ts): the sync fails, unless smaller pages are left to ask (page-size.ts) or heavier ones may come (page-window.ts). */
export class PageTooHeavyError extends SyncFailedError {}

/** What a list's path names, in words: "scopes", "remediation targets". */
function listName(pathAndQuery: string): string {
  return pathAndQuery.split('?')[0]!.replace(/^\/v1\//, '').replaceAll('-', ' ');
}

/**
 * Reads one page of a list, retrying network errors, timeouts, 429, 5xx and malformed pages
 * with backoff; other 4xx answers fail at once, since asking again cannot change them, and a
 * refused connection after one short retry: nothing listens there, and the whole backoff would
 * only delay saying so. A page past the policy's bounds (its body's bytes, its `total`, more
 * items than the `limit` asked) fails at once, saying which bound: the remote would send it again.
 * Sent within a sync's `window` (page-window.ts), it waits out a `Retry-After` that another
 * page was answered with, and tells the window when the remote pushes back (429, 5xx, a timeout).
 */
export async function fetchPage(remote: RemoteTenant, pathAndQuery: string, policy: SyncPolicy, signal?: AbortSignal, window?: PageWindow): Promise<RawPage> {
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    await window?.clear(signal);
    const sentAt = performance.now();
    try {
      return await fetchPageOnce(remote, pathAndQuery, policy, window?.pageBytes ?? policy.pageMaxBytes, signal);
    } catch (error) {
      if (!(error instanceof RetryableRequestError)) throw error;
      if (error.problem.kind === 'answered' || error.problem.kind === 'timed-out') window?.pushedBack(sentAt, error.waitMs);
      if (attempt >= Math.min(policy.requestAttempts, error.attemptsAtMost ?? Infinity)) {
        throw new SyncFailedError(remoteFailureMessage(remote, error.problem, pathAndQuery, attempt));
      }
      await sleep(error.waitMs ?? backoffDelay(attempt, policy), signal);
    }
  }
}

async function fetchPageOnce(remote: RemoteTenant, pathAndQuery: string, policy: SyncPolicy, maxBytes: number, signal?: AbortSignal): Promise<RawPage> {
  const message = (what: string) => remoteFailureMessage(remote, { kind: 'beyond-bound', what: `${what} (the list of ${listName(pathAndQuery)})` }, pathAndQuery, 1);
  const beyond = (what: string) => new SyncFailedError(message(what));
  let response: Response;
  let bytes: Buffer;
  try {
    // An error's body is never read: its status says enough. The request's timeout covers the
    // body too: a remote that stalls mid-body times out.
    ({ response, bytes } = await remoteGet(
      remote,
      pathAndQuery,
      async (answer, until) => ({ response: answer, bytes: answer.ok ? await readBodyCapped(answer, maxBytes, until) : Buffer.alloc(0) }),
      { timeoutMs: policy.requestTimeoutMs, interrupt: signal },
    ));
  } catch (error) {
    // Interrupted (paused, disconnected, stopping): the sync ends with the signal's reason.
    if (signal?.aborted) throw signal.reason;
    if (error instanceof BodyTooLargeError) throw new PageTooHeavyError(message(`one page weighed more than ${formatBytes(error.maxBytes)}`));
    if (error instanceof RemoteUnreachableError) throw new RetryableRequestError(error.problem, undefined, error.lasting ? attemptsWhenNothingListens : undefined);
    throw new RetryableRequestError(
      timedOut(error) ? { kind: 'timed-out', seconds: policy.requestTimeoutMs / 1000 } : { kind: 'broken-answer', what: `the answer broke off: ${String(error)}` },
    );
  }
  const { status } = response;
  if (status === 429 || status >= 500) {
    throw new RetryableRequestError({ kind: 'answered', status }, retryAfterDelay(response.headers.get('retry-after'), policy));
  }
  if (!response.ok) {
    const problem = status === 401 || status === 403 ? ({ kind: 'refused-key', status } as const) : ({ kind: 'answered', status } as const);
    throw new RemoteRefusedError(remoteFailureMessage(remote, problem, pathAndQuery, 1), status);
  }
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString());
  } catch {
    throw new RetryableRequestError({ kind: 'broken-answer', what: 'a page that is not JSON, truncated or malformed' });
  }
  const page = body as Partial<RawPage> | null;
  if (!Array.isArray(page?.data) || !Number.isSafeInteger(page.total) || page.total! < 0) {
    throw new RetryableRequestError({ kind: 'not-the-api' });
  }
  const total = page.total!;
  if (total > policy.listTotalBound) {
    throw beyond(`a total of ${total} items, beyond the bound of ${policy.listTotalBound.toLocaleString('en-US')} a list may hold`);
  }
  const limit = Number(new URLSearchParams(pathAndQuery.split('?')[1]).get('limit'));
  if (page.data.length > limit) throw beyond(`${page.data.length} items in one page, where at most the ${limit} asked for may come`);
  return { data: page.data, total, bytes: bytes.length };
}
