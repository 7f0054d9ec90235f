import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading, QueryError } from '../components/query-state';

interface DetailFrameProps<T> {
  query: UseQueryResult<T>;
  what: string;
  back: { to: string; label: string };
  title: (item: T) => ReactNode;
  children: (item: T) => ReactNode;
}

/** The frame of a detail page: its loading and error states, a way back, and the heading. */
export function DetailFrame<T>({ query, what, back, title, children }: DetailFrameProps<T>) {
  return (
    <section className="view view--detail" aria-labelledby="view-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={back.to}>{back.label}</Link>
      </nav>
      {query.isPending ? (
        <Loading what={what} />
      ) : query.isError ? (
        <>
          <h1 id="view-title">{what}</h1>
          <QueryError error={query.error} onRetry={() => void query.refetch()} />
        </>
      ) : (
        <>
          <h1 id="view-title">{title(query.data)}</h1>
          {children(query.data)}
        </>
      )}
    </section>
  );
}
