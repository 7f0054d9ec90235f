import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { itemQuery } from '../api/console-queries';
import { paths } from '../lib/paths';

/**
 * A link to an endpoint, named by its hostname: the one given (a finding carries it), else
 * looked up; "Open endpoint" while it is looked up. An endpoint this organization's data does not
 * hold (a scope may name any id) is its id, as text: there is no page to open.
 */
export function EndpointLink({ slug, id, hostname }: { slug: string; id: string; hostname?: string | null }) {
  const endpoint = useQuery({ ...itemQuery(slug, 'endpoints', id), enabled: !hostname });
  if (!hostname && endpoint.isError) return <span title="No endpoint of this organization has this id">{id}</span>;
  return <Link to={paths.item(slug, 'endpoints', id)}>{hostname ?? endpoint.data?.hostname ?? 'Open endpoint'}</Link>;
}
