import { type RemoteTenant, RemoteUnreachableError, remoteGet } from '../remote/remote-tenant.js';
import { RemoteRefusedError, RetryableRequestError, SyncFailedError } from './sync-errors.js';
import { type SyncPolicy, backoffDelay, retryAfterDelay, sleep } from './sync-policy.js';

/** One page of a list as received: items not yet validated. */
export interface RawPage {
  data: unknown[];
  total: number;
}

/**
 * Reads one page of a list, retrying network errors, timeouts, 429, 5xx and malformed pages
 * with backoff; other 4xx answers fail at once, since asking again cannot change them.
 */
export async function fetchPage(remote: RemoteTenant, pathAndQuery: string, policy: SyncPolicy, signal?: AbortSignal): Promise<RawPage> {
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await fetchPageOnce(remote, pathAndQuery, policy);
    } catch (error) {
      if (!(error instanceof RetryableRequestError)) throw error;
      if (attempt >= policy.requestAttempts) {
        throw new SyncFailedError(`GET ${pathAndQuery} failed ${attempt} times; the last time: ${error.message}`);
      }
      await sleep(error.waitMs ?? backoffDelay(attempt, policy), signal);
    }
  }
}

async function fetchPageOnce(remote: RemoteTenant, pathAndQuery: string, policy: SyncPolicy): Promise<RawPage> {
  let response: Response;
  let text: string;
  try {
    response = await remoteGet(remote, pathAndQuery, policy.requestTimeoutMs);
    if (!response.ok) await response.body?.cancel();
    // The request's timeout covers the body too: a remote that stalls mid-body times out.
    text = response.ok ? await response.text() : '';
  } catch (error) {
    if (error instanceof RemoteUnreachableError) throw new RetryableRequestError(error.message);
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new RetryableRequestError(timedOut ? 'the answer timed out' : `the answer broke off (${String(error)})`);
  }
  const { status } = response;
  if (status === 429 || status >= 500) {
    throw new RetryableRequestError(`the remote answered ${status}`, retryAfterDelay(response.headers.get('retry-after'), policy));
  }
  if (status === 401) throw new RemoteRefusedError(`The remote tenant ${remote.baseUrl} refused the key (401)`, status);
  if (!response.ok) throw new RemoteRefusedError(`The remote tenant ${remote.baseUrl} answered ${status} to GET ${pathAndQuery}`, status);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RetryableRequestError('the page is not JSON (truncated or malformed)');
  }
  const page = body as Partial<RawPage> | null;
  if (!Array.isArray(page?.data) || !Number.isSafeInteger(page.total) || page.total! < 0) {
    throw new RetryableRequestError('the page has no "data" array or no "total" count');
  }
  return { data: page.data, total: page.total! };
}
