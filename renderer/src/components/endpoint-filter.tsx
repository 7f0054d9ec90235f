import { useQuery, useQueryClient } from '@tanstack/react-query';
import { itemQuery } from '../api/console-queries';
import { useSuggestions } from '../api/use-suggestions';
import { Combobox } from './combobox';

/** The props of a filter that chooses one item by name and keeps its id. */
export interface ChosenItemFilterProps {
  slug: string;
  /** The query parameter: `endpointId`, `remediationTargetId`. */
  name: string;
  label: string;
  /** The chosen item's id, from the URL; empty when none is chosen. */
  value: string;
  /** Sets the filter to an id; an empty one removes it. */
  onChange: (name: string, value: string) => void;
}

/**
 * A filter by endpoint, chosen by hostname (or IP) among suggestions as one types. The URL
 * keeps the endpoint's id; the field shows its hostname, fetched when a URL brings only the id.
 */
export function EndpointFilter({ slug, name, label, value, onChange }: ChosenItemFilterProps) {
  const queryClient = useQueryClient();
  const suggestions = useSuggestions(slug, 'endpoints');
  const chosen = useQuery({ ...itemQuery(slug, 'endpoints', value), enabled: value !== '' });
  return (
    <Combobox
      label={label}
      name={name}
      placeholder="Hostname or IP…"
      chosen={value ? (chosen.data?.hostname ?? (chosen.isError ? value : '…')) : ''}
      options={suggestions.items.map((endpoint) => ({
        id: endpoint.id,
        label: endpoint.hostname,
        detail: [endpoint.ip, endpoint.operating_system.name].filter(Boolean).join(' · '),
      }))}
      message={suggestions.message}
      onSearch={suggestions.onSearch}
      onChoose={(option) => {
        // The suggestion is the item as its own query answers it: the field names it without a request.
        const endpoint = suggestions.items.find((item) => item.id === option.id);
        if (endpoint) queryClient.setQueryData(itemQuery(slug, 'endpoints', endpoint.id).queryKey, endpoint);
        onChange(name, option.id);
      }}
      onClear={() => onChange(name, '')}
    />
  );
}
