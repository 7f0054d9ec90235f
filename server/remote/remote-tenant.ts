/** A remote tenant service: any server that follows the specification (DESIGN section 5). */
export interface RemoteTenant {
  /** Base URL, without a trailing slash, e.g. `https://tenant.example.com`. */
  baseUrl: string;
  apiKey: string;
}

/** Raised when the remote tenant cannot be reached or answers in a way that is not the API. */
export class RemoteUnreachableError extends Error {}

/** How long one request to a remote may take before it counts as unreachable. */
export const remoteRequestTimeoutMs = 30_000;

/**
 * One GET to the remote's v1 API with its key. A network failure or a timeout raises
 * {@link RemoteUnreachableError}; any HTTP answer is returned as it is. A connection that fails
 * before any answer is tried once more: the pool may hand out a kept-alive socket at the moment
 * the remote closes it, which says nothing about whether the remote is reachable.
 */
export async function remoteGet(remote: RemoteTenant, pathAndQuery: string, timeoutMs = remoteRequestTimeoutMs): Promise<Response> {
  const signal = AbortSignal.timeout(timeoutMs);
  const get = () =>
    fetch(`${remote.baseUrl}${pathAndQuery}`, {
      headers: { Authorization: `Bearer ${remote.apiKey}`, Accept: 'application/json, application/octet-stream' },
      redirect: 'error',
      signal,
    });
  try {
    try {
      return await get();
    } catch (error) {
      if (signal.aborted) throw error;
      return await get();
    }
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'could not be reached';
    throw new RemoteUnreachableError(`The remote tenant ${remote.baseUrl} ${reason}`, { cause: error });
  }
}
