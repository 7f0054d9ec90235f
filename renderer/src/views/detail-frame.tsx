import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName, ConsoleItem } from '../../../contracts/collections';
import { itemQuery } from '../api/console-queries';
import { QueryFrame } from '../components/query-state';
import { paths } from '../lib/paths';

interface DetailFrameProps<C extends CollectionName> {
  slug: string;
  collection: C;
  id: string;
  title: (item: ConsoleItem<C>) => ReactNode;
  children: (item: ConsoleItem<C>) => ReactNode;
}

/**
 * The frame of an item's detail page: it fetches the item, shows its loading and error states,
 * the way back to its list, and the heading. Escape goes back (its route's `escapeBack`, routes.tsx).
 */
export function DetailFrame<C extends CollectionName>({ slug, collection, id, title, children }: DetailFrameProps<C>) {
  const query = useQuery(itemQuery(slug, collection, id));
  const { labels } = collectionBasics[collection];
  return (
    <section className="view view--detail" aria-labelledby="view-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.list(slug, collection)} aria-keyshortcuts="Escape">{`← ${labels.title}`}</Link>
      </nav>
      <QueryFrame query={query} what={labels.resource} errorHeading={<h1 id="view-title">{labels.resource}</h1>}>
        {(item) => (
          <>
            <h1 id="view-title">{title(item)}</h1>
            {children(item)}
          </>
        )}
      </QueryFrame>
    </section>
  );
}
