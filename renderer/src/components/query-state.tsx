import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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

interface QueryFrameProps<T> {
  query: UseQueryResult<T>;
  /** What is on its way, as "Loading {what}…" says it. */
  what: string;
  /** Shown above the error, when the view keeps a heading while its data failed (a detail page's). */
  errorHeading?: ReactNode;
  /** The sentence saying there is nothing to show, when the data holds nothing; empty when it does. */
  empty?: (data: T) => ReactNode;
  /** What the data shows. */
  children: (data: T) => ReactNode;
}

/**
 * The one frame of a query's states, which every view shows its data through: "Loading …" while
 * it is on its way, its error with a Retry, the sentence of `empty` when there is nothing to show,
 * else `children` of the data. A render prop rather than suspense (docs/decisions/the-console/one-frame-for-a-querys-pending-error-and-empty.md, "One frame
 * for a query's pending, error and empty states"): each view keeps its own heading and controls
 * in sight while its data loads, and a refetch shows the data it has.
 */
export function QueryFrame<T>({ query, what, errorHeading, empty, children }: QueryFrameProps<T>) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) {
    return (
      <>
        {errorHeading}
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      </>
    );
  }
  const nothing = empty?.(query.data);
  return nothing ? <p className="state">{nothing}</p> : children(query.data);
}
