/** Why a sync failed, in words for the user; the last good replica stays. */
export class SyncFailedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SyncFailedError';
  }
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

/** A request's failure that another attempt may cure; `waitMs` is what the remote asked for. */
export class RetryableRequestError extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
    this.name = 'RetryableRequestError';
  }
}
