import { type RemoteProblem, whatFailed } from './remote-problems.js';

/** A remote tenant service: any server that follows the specification (DESIGN section 5). */
export interface RemoteTenant {
  /** Base URL, without a trailing slash or `/v1`, e.g. `https://tenant.example.com`. */
  baseUrl: string;
  apiKey: string;
  /** The slug of the replica it is read for, named in the advice of a failure; absent while an address is being tried. */
  replica?: string;
}

/** Raised when the remote tenant cannot be reached or does not answer in time; its message says so with the address. */
export class RemoteUnreachableError extends Error {
  constructor(
    readonly problem: Extract<RemoteProblem, { kind: 'unreachable' | 'timed-out' }>,
    baseUrl: string,
    /** Nothing listens there, or the host name is unknown: asking again at once will not change it. */
    readonly lasting: boolean,
    options?: ErrorOptions,
  ) {
    super(whatFailed(baseUrl, problem), options);
    this.name = 'RemoteUnreachableError';
  }
}

/** Whether reading an answer failed because its request's time ran out (the body of a remote that stalls mid-way). */
export const timedOut = (error: unknown): boolean => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** How long one request to a remote may take before it counts as unreachable. */
export const remoteRequestTimeoutMs = 30_000;

/** Causes that say nothing listens at the address, in words. */
const lastingCauses: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
};

/** The system error code under fetch's "fetch failed" (undici puts it on `cause`, or on the first of an AggregateError's errors). */
function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether fetch failed on a redirect, which `redirect: 'error'` refuses (undici says so on `cause`). */
const wasRedirect = (error: unknown) => (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === 'unexpected redirect';

/**
 * One GET to the remote's v1 API with its key, its answer handed to `read` (which reads its
 * body, or leaves it: what it leaves is cancelled) while the request is alive. The request
 * ends, with its timeout's or `interrupt`'s reason, when `timeoutMs` have passed or `interrupt`
 * (a sync's signal: a replica paused, disconnected or stopping) aborts, whichever comes first;
 * `read` gets the signal that says so, for the body: fetch's own link from its signal to a body
 * it has answered with is held weakly, and a garbage collection during a stalled body dropped
 * it, leaving the body to hang past its timeout and its sync past a pause (undici #4068), so
 * the body's reader is cancelled by that signal itself (readBodyCapped).
 *
 * Redirects are never followed: the key would go wherever the remote points (a redirect is a
 * lasting failure, as nothing listening is). A network failure or a timeout before the answer
 * raises {@link RemoteUnreachableError}; any HTTP answer is handed to `read` as it is. A
 * connection that fails before any answer is tried once more: the pool may hand out a
 * kept-alive socket at the moment the remote closes it, which says nothing about whether the
 * remote is reachable. Interrupted, it rejects with the interrupt's reason.
 */
export async function remoteGet<T>(
  remote: RemoteTenant,
  pathAndQuery: string,
  read: (response: Response, signal: AbortSignal) => Promise<T>,
  options: { timeoutMs?: number; interrupt?: AbortSignal } = {},
): Promise<T> {
  const { timeoutMs = remoteRequestTimeoutMs, interrupt } = options;
  interrupt?.throwIfAborted();
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${timeoutMs / 1000} s`, 'TimeoutError')), timeoutMs);
  // The timer holds the controller; it keeps no process alive by itself (a CLI exits when done).
  timer.unref();
  const onInterrupt = () => controller.abort(interrupt!.reason);
  interrupt?.addEventListener('abort', onInterrupt, { once: true });
  const get = () =>
    fetch(`${remote.baseUrl}${pathAndQuery}`, {
      headers: { Authorization: `Bearer ${remote.apiKey}`, Accept: 'application/json, application/octet-stream' },
      redirect: 'error',
      signal,
    });
  try {
    let response: Response;
    try {
      try {
        response = await get();
      } catch (error) {
        if (signal.aborted || wasRedirect(error)) throw error;
        response = await get();
      }
    } catch (error) {
      if (interrupt?.aborted) throw interrupt.reason;
      if (timedOut(error)) {
        throw new RemoteUnreachableError({ kind: 'timed-out', seconds: timeoutMs / 1000 }, remote.baseUrl, false, { cause: error });
      }
      if (wasRedirect(error)) {
        throw new RemoteUnreachableError({ kind: 'unreachable', cause: 'it answered with a redirect, which is never followed' }, remote.baseUrl, true, { cause: error });
      }
      const code = errorCode(error);
      const lasting = code !== undefined && code in lastingCauses;
      const cause = lasting ? lastingCauses[code]! : code ? `the connection failed: ${code}` : 'the connection failed';
      throw new RemoteUnreachableError({ kind: 'unreachable', cause }, remote.baseUrl, lasting, { cause: error });
    }
    try {
      return await read(response, signal);
    } catch (error) {
      if (interrupt?.aborted) throw interrupt.reason;
      throw error;
    } finally {
      // Whatever `read` left unread is not wanted.
      if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    interrupt?.removeEventListener('abort', onInterrupt);
  }
}
