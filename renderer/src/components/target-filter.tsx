import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleItem } from '../../../contracts/collections';
import { itemQuery } from '../api/console-queries';
import { useSuggestions } from '../api/use-suggestions';
import { targetName } from '../lib/names';
import { Combobox } from './combobox';
import type { ChosenItemFilterProps } from './endpoint-filter';

interface TargetFilterProps extends ChosenItemFilterProps {
  /** The endpoint chosen in the same filter bar, if any: then only its targets are suggested. */
  endpointId?: string;
}

/** The hostname of a target's endpoint, looked up (cached, one request per endpoint): targets of one product differ by it. */
function useHostname(slug: string, endpointId: string | null | undefined): string | undefined {
  const endpoint = useQuery({ ...itemQuery(slug, 'endpoints', endpointId ?? ''), enabled: Boolean(endpointId) });
  return endpoint.data?.hostname;
}

/** Where a suggested target is, to tell it from the same product on other endpoints. */
function TargetPlace({ slug, target }: { slug: string; target: ConsoleItem<'remediationTargets'> }) {
  const hostname = useHostname(slug, target.endpoint_id);
  const place = target.endpoint_id ? `on ${hostname ?? '…'}` : 'on no endpoint';
  return <>{[place, target.target_type.replace('_', ' '), target.status].join(' · ')}</>;
}

/**
 * A filter by remediation target, chosen by vendor and product (or package) among suggestions
 * as one types, each with its endpoint's hostname (only the chosen endpoint's targets when the
 * bar has one: a product on a thousand endpoints has a thousand targets). The URL keeps the
 * target's id; the field shows "product version — hostname", fetched when a URL brings only the id.
 */
export function TargetFilter({ slug, name, label, value, onChange, endpointId }: TargetFilterProps) {
  const queryClient = useQueryClient();
  const suggestions = useSuggestions(slug, 'remediationTargets', endpointId ? { endpointId } : {});
  const chosen = useQuery({ ...itemQuery(slug, 'remediationTargets', value), enabled: value !== '' });
  const hostname = useHostname(slug, chosen.data?.endpoint_id);
  const chosenName = chosen.data ? [targetName(chosen.data), hostname].filter(Boolean).join(' — ') : chosen.isError ? value : '…';
  return (
    <Combobox
      label={label}
      name={name}
      placeholder="Vendor or product…"
      chosen={value ? chosenName : ''}
      options={suggestions.items.map((target) => ({ id: target.id, label: targetName(target), detail: <TargetPlace slug={slug} target={target} /> }))}
      message={suggestions.message}
      onSearch={suggestions.onSearch}
      onChoose={(option) => {
        // The suggestion is the item as its own query answers it: the field names it without a request.
        const target = suggestions.items.find((item) => item.id === option.id);
        if (target) queryClient.setQueryData(itemQuery(slug, 'remediationTargets', target.id).queryKey, target);
        onChange(name, option.id);
      }}
      onClear={() => onChange(name, '')}
      wide
    />
  );
}
