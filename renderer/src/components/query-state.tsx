import { errorMessage } from '../api/console-fetch';

/** An error of a query, with a way to try again. */
export function QueryError({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  const message = errorMessage(error, 'Something went wrong while loading this view.');
  return (
    <div className="state state--error" role="alert">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** The placeholder of a view whose data is on its way. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}
