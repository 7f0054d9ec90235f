import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { ConsoleItem } from '../../../contracts/collections';
import { formatCount } from '../lib/format';
import type { ListFilters } from './list-pages';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { type ChosenCollection, suggestionsQuery } from './console-queries';

/** How long typing must pause before the suggestions are asked for. */
const typingPauseMs = 250;

/**
 * The suggestions of a filter that chooses an item of `collection` by name: `search` is what
 * the combobox is told (the text typed, or null while closed), the items are the first ones
 * matching it (among those `within` selects) once typing pauses, and the message says what the
 * list cannot show.
 */
export function useSuggestions<C extends ChosenCollection>(slug: string, collection: C, within: ListFilters = {}) {
  const [search, setSearch] = useState<string | null>(null);
  const text = useDebouncedValue(search?.trim() ?? '', typingPauseMs);
  // Asked once typing pauses (the text settled is the text typed), not for each text on the way:
  // meanwhile the suggestions of the last text settled stay.
  const settled = search !== null && text === search.trim();
  const query = useQuery({ ...suggestionsQuery(slug, collection, text, within), enabled: settled, placeholderData: keepPreviousData });
  const { noun } = collectionBasics[collection].labels;
  const items: ConsoleItem<C>[] = search === null ? [] : (query.data?.data ?? []);
  let message = '';
  if (search === null) message = '';
  else if (query.isError) message = 'The suggestions could not be loaded.';
  else if (!query.data) message = 'Searching…';
  else if (query.data.total === 0) message = text ? `No ${noun} matches “${text}”.` : `There are no ${noun}s.`;
  else if (query.data.total > items.length) message = `${formatCount(items.length)} of ${formatCount(query.data.total)}: type more to narrow them.`;
  return { items, message, onSearch: setSearch };
}
