/**
 * A report's filter: the findings list's URL query (issue 40: "the URL's own filters"), read with
 * the list's own schema, so that a report counts exactly what the list shows with those filters.
 * A saved view (issue 40 item 1) resolves to the same query string in {@link reportFilter}.
 */
import { collectionSchemas, type ConsoleQuery } from '../../contracts/collections.js';
import { maxReportFilterLength } from '../../contracts/console/reports.js';
import { savedViewNameKey } from '../../contracts/console/saved-view-basics.js';
import type { SavedView } from '../../contracts/saved-views.js';
import type { EndpointSelection } from '../store/basics/endpoint-selection.js';

/** A filter the report cannot take; the message names the parameter. */
export class ReportFilterError extends Error {}

/** Parameters the report sets itself (status, overdue) or that order and page a list: a filter naming one is refused. */
const setByTheReport = ['status', 'overdue', 'sort', 'limit', 'offset'] as const;

/** What a report is made of: a findings-list filter, or the name of one of the organization's saved views. */
export type ReportSource = { filter: string } | { view: string };

/** A report's filter, read. */
export interface ReportFilter {
  /** The query string as given, without a leading `?`: what the report shows and the delta matches on. */
  text: string;
  /** The findings list's query of the filter, sorted by nothing, one row a page: the base of each count. */
  query: ConsoleQuery<'findings'>;
  /** Its filters by endpoint context: what the performance and the plan (which take no other) are narrowed to. */
  selection: EndpointSelection;
}

/**
 * The filter of a report source. A saved view (of any console view: `savedViews`, the
 * organization's) gives its query without the parameters the report sets itself (its sort, its
 * status); a filter the findings list does not take is refused, naming the view.
 * @throws ReportFilterError for a view not found, or a filter refused
 */
export function reportFilter(source: ReportSource, savedViews: readonly SavedView[]): ReportFilter {
  if ('filter' in source) return parseReportFilter(source.filter);
  const key = savedViewNameKey(source.view);
  const view = savedViews.find((saved) => savedViewNameKey(saved.name) === key);
  if (!view) throw new ReportFilterError(`There is no saved view named "${source.view}"`);
  const query = new URLSearchParams(view.query);
  for (const name of setByTheReport) query.delete(name);
  try {
    return parseReportFilter(query.toString());
  } catch (error) {
    if (error instanceof ReportFilterError) throw new ReportFilterError(`The saved view "${view.name}" (${view.view}): ${error.message}`);
    throw error;
  }
}

/**
 * Reads a findings-list query string as a report's filter.
 * @throws ReportFilterError naming the parameter: unknown, given twice, set by the report, or invalid
 */
export function parseReportFilter(filter: string): ReportFilter {
  const text = filter.startsWith('?') ? filter.slice(1) : filter;
  if (text.length > maxReportFilterLength) throw new ReportFilterError(`The filter is longer than ${maxReportFilterLength} characters`);
  const query = findingsQuery(text)!;
  const taken = setByTheReport.find((name) => new URLSearchParams(text).has(name));
  if (taken) throw new ReportFilterError(`The filter's "${taken}" is set by the report itself (it counts open, overdue and remediated findings apart): leave it out`);
  return { text, query, selection: { tag: query.tag, criticality: query.criticality } };
}

/**
 * The findings list's query of `text` with `more` parameters added (`status=open`), one id a page
 * (a count reads its total); undefined when an added parameter contradicts the filter's own
 * (`severity=high` added to a filter of `severity=critical`): such a count keeps nothing. Of two
 * EPSS minimums, the higher one holds.
 * @throws ReportFilterError as {@link parseReportFilter}
 */
export function findingsQuery(text: string, more: Record<string, string> = {}): ConsoleQuery<'findings'> | undefined {
  const schema = collectionSchemas.findings.console;
  const known = Object.keys(schema.shape);
  const values: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (!known.includes(name)) throw new ReportFilterError(`Unknown filter parameter "${name}": the findings list's parameters are ${known.join(', ')}`);
    if (name in values) throw new ReportFilterError(`Filter parameter "${name}" is given more than once`);
    values[name] = value;
  }
  for (const [name, value] of Object.entries(more)) {
    const own = values[name];
    if (own === undefined || own === value) values[name] = value;
    else if (name === 'epssMin') values[name] = String(Math.max(Number(own), Number(value)));
    else return undefined;
  }
  const parsed = schema.safeParse({ ...values, limit: '1' });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ReportFilterError(`Invalid filter parameter "${String(issue.path[0] ?? 'filter')}": ${issue.message}`);
  }
  return parsed.data;
}
