import { type RemoteProblem, describeRemoteProblem } from '../remote/remote-problems.js';
import type { RemoteTenant } from '../remote/remote-tenant.js';

/** Why a sync failed, in words for the user; the last good replica stays. */
export class SyncFailedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SyncFailedError';
  }
}

/**
 * Why a sync failed to get what it asked of the remote, for people: what failed at which
 * address and what to do (the advice names the replica's Edit action and `orgs update`), then
 * a detail line with the request's path, never its query (an internal probe's `updatedSince`
 * means nothing to the reader).
 */
export function remoteFailureMessage(remote: RemoteTenant, problem: RemoteProblem, pathAndQuery: string, attempts: number): string {
  const audience = remote.replica === undefined ? ({ typed: true } as const) : { replica: remote.replica };
  const path = pathAndQuery.split('?')[0];
  return `${describeRemoteProblem(remote.baseUrl, problem, audience)}\nDetail: GET ${path}${attempts > 1 ? `, ${attempts} attempts` : ''}.`;
}

/** The remote answered a 4xx other than 429: asking again cannot change that. */
export class RemoteRefusedError extends SyncFailedError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'RemoteRefusedError';
  }
}

/**
 * A request's failure that another attempt may cure; `waitMs` is what the remote asked for,
 * `attemptsAtMost` caps the attempts of a failure that waiting seconds will not cure (a refused
 * connection: nothing listens there).
 */
export class RetryableRequestError extends Error {
  constructor(
    readonly problem: RemoteProblem,
    readonly waitMs?: number,
    readonly attemptsAtMost?: number,
  ) {
    super(problem.kind);
    this.name = 'RetryableRequestError';
  }
}
