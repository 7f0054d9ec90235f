import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { listPageQuery } from '../api/console-queries';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { listDefinitions } from '../views/list-definitions';
import { requestFilters } from '../views/list-sort';
import { VirtualTable } from './virtual-table';

interface RelatedListProps<C extends CollectionName> {
  slug: string;
  collection: C;
  /** The filter that relates the items to the page's item, e.g. `{ endpointId }`. */
  filter: Record<string, string>;
  title: string;
}

/** The items of a collection that belong to the item of a detail page, with a link to the full list. */
export function RelatedList<C extends CollectionName>({ slug, collection, filter, title }: RelatedListProps<C>) {
  const navigate = useNavigate();
  const definition = listDefinitions[collection];
  const filterKey = JSON.stringify(filter);
  const pageQuery = useCallback(
    (offset: number) => listPageQuery(slug, collection, requestFilters(filter, definition.defaultSort), offset),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for filter.
    [slug, collection, filterKey, definition.defaultSort],
  );
  const headingId = `related-${collectionBasics[collection].path}`;
  return (
    <section className="related" aria-labelledby={headingId}>
      <header className="related__header">
        <h2 id={headingId}>{title}</h2>
        <Link to={paths.list(slug, collection, filter)}>Open as a list with filters</Link>
      </header>
      <VirtualTable
        label={title}
        columns={definition.columns}
        pageQuery={pageQuery}
        onOpen={(item) => navigate(paths.item(slug, collection, item.id), openFromTable)}
        emptyMessage={`No ${collectionBasics[collection].labels.noun}s.`}
      />
    </section>
  );
}
