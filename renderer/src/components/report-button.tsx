import { Link } from 'react-router';
import type { ListFilters } from '../api/list-pages';
import { useCreateReport } from '../api/report-queries';
import { errorMessage } from '../api/console-fetch';
import { paths } from '../lib/paths';

/** What a list's URL holds that a report sets itself (it counts open, overdue and remediated findings apart) or that only orders the list. */
const setByTheReport = new Set(['status', 'overdue', 'sort']);

/** The findings list's filters as a report's filter: its URL's query string, without what the report sets. */
export function reportFilterOf(filters: ListFilters): string {
  return new URLSearchParams(Object.entries(filters).filter(([name]) => !setByTheReport.has(name))).toString();
}

/** Makes a signed report of the findings list's filters, and says where it is. */
export function ReportButton({ slug, filters }: { slug: string; filters: ListFilters }) {
  const create = useCreateReport(slug);
  return (
    <div className="export">
      <button type="button" onClick={() => create.mutate({ filter: reportFilterOf(filters) })} disabled={create.isPending}>
        {create.isPending ? 'Making report…' : 'Report'}
      </button>
      {create.isSuccess ? (
        <span role="status">
          Report made and signed: <Link to={paths.view(slug, 'reports')}>open it in Reports</Link>
        </span>
      ) : null}
      {create.isError ? <span role="alert">{errorMessage(create.error, 'The report could not be made.')}</span> : null}
    </div>
  );
}
