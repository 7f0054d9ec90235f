import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { itemQuery } from '../api/console-queries';
import { paths } from '../lib/paths';

/**
 * A link to an endpoint, named by its hostname: the one given (a finding carries it), else
 * looked up; "Open endpoint" while it is unknown.
 */
export function EndpointLink({ slug, id, hostname }: { slug: string; id: string; hostname?: string | null }) {
  const endpoint = useQuery({ ...itemQuery(slug, 'endpoints', id), enabled: !hostname });
  return <Link to={paths.item(slug, 'endpoints', id)}>{hostname ?? endpoint.data?.hostname ?? 'Open endpoint'}</Link>;
}
