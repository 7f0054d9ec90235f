import { STATUS_CODES } from 'node:http';

/** What went wrong in talking to a remote tenant, as a person needs to know it. */
export type RemoteProblem =
  /** No answer: `cause` says why in words (nothing listens, the host name is unknown, …). */
  | { kind: 'unreachable'; cause: string }
  | { kind: 'timed-out'; seconds: number }
  /** 401 or 403. */
  | { kind: 'refused-key'; status: number }
  /** Any other status that is not a success. */
  | { kind: 'answered'; status: number }
  /** A success whose body is not the v1 API's. */
  | { kind: 'not-the-api' }
  /** An answer cut off or garbled on the way: `what` says how. */
  | { kind: 'broken-answer'; what: string }
  /**
   * An answer past a bound this console sets on what a remote sends (remote-bounds.ts): `what`
   * says which answer and which bound, as "one page of scopes weighed more than 32 MiB".
   */
  | { kind: 'beyond-bound'; what: string };

/**
 * Who reads the advice: the person who just typed an address and key (connecting or editing a
 * replica), or the owner of a replica whose sync failed, to whom the ways to change it are named.
 */
export type RemoteAudience = { typed: true } | { replica: string };

const statusText = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** The sentence that says what failed, with the remote's address. */
export function whatFailed(baseUrl: string, problem: RemoteProblem): string {
  switch (problem.kind) {
    case 'unreachable':
      return `The remote tenant could not be reached at ${baseUrl} (${problem.cause}).`;
    case 'timed-out':
      return `The remote tenant at ${baseUrl} did not answer within ${problem.seconds} s.`;
    case 'refused-key':
      return `The remote tenant at ${baseUrl} refused the API key (${statusText(problem.status)}).`;
    case 'answered':
      return `The remote tenant at ${baseUrl} answered ${statusText(problem.status)}.`;
    case 'not-the-api':
      return `${baseUrl} answered, but not as the Remediation Inventory v1 API.`;
    case 'broken-answer':
      return `The remote tenant at ${baseUrl} sent a broken answer (${problem.what}).`;
    case 'beyond-bound':
      return `The remote tenant at ${baseUrl} sent more than this console accepts: ${problem.what}.`;
  }
}

type Advice = 'address' | 'key' | 'later' | 'both' | 'bounded';

function adviceOf(problem: RemoteProblem): Advice {
  switch (problem.kind) {
    case 'unreachable':
    case 'timed-out':
    case 'not-the-api':
      return 'address';
    case 'refused-key':
      return 'key';
    case 'broken-answer':
      return 'later';
    case 'beyond-bound':
      return 'bounded';
    case 'answered':
      return problem.status === 404 ? 'address' : problem.status === 429 || problem.status >= 500 ? 'later' : 'both';
  }
}

/** The sentence that says what to do about it, for whoever reads it. */
export function whatToDo(problem: RemoteProblem, audience: RemoteAudience): string {
  const advice = adviceOf(problem);
  if ('typed' in audience) {
    return {
      address: "Check the address: the remote tenant's base URL, with or without /v1, and that the remote is running there.",
      key: 'Check the key: it must be an API key of this remote tenant.',
      later: 'The remote has a problem of its own: try again in a moment.',
      both: 'Check the address and the key.',
      bounded: 'Nothing was saved: check that this address is the remote tenant meant.',
    }[advice];
  }
  const update = `remediation-console orgs update --slug ${audience.replica}`;
  return {
    address: `Check that the remote runs at this address; if it has moved, change the replica's URL: Edit in the Organizations view, or "${update} --remote URL".`,
    key: `If its key was rotated or revoked, give the replica a new one: Edit in the Organizations view, or "${update} --api-key-file FILE".`,
    later: 'The remote has a problem of its own: the next sync tries again, or use Sync now.',
    both: `Check the replica's address and key: Edit in the Organizations view, or "${update}".`,
    bounded: `The replica keeps its last good data. Until its remote is fixed, pause its syncs: Pause syncs in the Organizations view, or "remediation-console orgs pause --slug ${audience.replica}".`,
  }[advice];
}

/** What failed and what to do, in one paragraph. */
export function describeRemoteProblem(baseUrl: string, problem: RemoteProblem, audience: RemoteAudience): string {
  return `${whatFailed(baseUrl, problem)} ${whatToDo(problem, audience)}`;
}
