import { useCallback, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { listPageQuery } from '../api/console-queries';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { listDefinitions, shownColumns } from './list-definitions';
import { askedFilters } from './asked-filters';
import { VirtualTable } from '../components/virtual-table';

interface RelatedListProps<C extends CollectionName> {
  slug: string;
  collection: C;
  /** The filter that relates the items to the page's item, e.g. `{ endpointId }`. */
  filter: Record<string, string>;
  title: string;
}

/**
 * The items of a collection that belong to the item of a detail page, as the collection's list
 * view shows them (its default filters and order: open findings, riskiest first, which it says),
 * with a link to that list, which then counts the same items.
 */
export function RelatedList<C extends CollectionName>({ slug, collection, filter, title }: RelatedListProps<C>) {
  const navigate = useNavigate();
  const definition = listDefinitions[collection];
  const filterKey = JSON.stringify(filter);
  const pageQuery = useCallback(
    (offset: number) => listPageQuery(slug, collection, askedFilters(collection, filter), offset),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for filter.
    [slug, collection, filterKey],
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- filterKey stands for filter.
  const columns = useMemo(() => shownColumns(definition, askedFilters(collection, filter)), [definition, collection, filterKey]);
  const headingId = `related-${collectionBasics[collection].path}`;
  return (
    <section className="related" aria-labelledby={headingId}>
      <header className="related__header">
        <h2 id={headingId}>{title}</h2>
        <Link to={paths.list(slug, collection, filter)}>Open as a list with filters</Link>
      </header>
      {definition.defaultView ? <p className="hint">{definition.defaultView.summary}; other statuses in the list.</p> : null}
      <VirtualTable
        label={title}
        columns={columns}
        rowHeight={definition.rowHeight}
        pageQuery={pageQuery}
        onOpen={(item) => navigate(paths.item(slug, collection, item.id), openFromTable)}
        emptyMessage={`No ${collectionBasics[collection].labels.noun}s.`}
      />
    </section>
  );
}
