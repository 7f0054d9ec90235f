import { collectionBasics } from '../../../contracts/collection-basics';
import type { ListFilters } from '../api/list-pages';
import type { CollectionName, Collections, ConsoleFilterParameter, ConsoleItem, FilterParameter, SortKey } from '../../../contracts/collections';
import { findingSeverities, findingStatuses, scopeStatuses, targetStatuses, targetTypes } from '../../../contracts/enums';
import { deadlineExplanation } from '../../../contracts/remediation-deadlines';
import { CriticalityBadge, DueDate, KevBadge, SeverityBadge, StatusBadge } from '../components/badges';
import { CutText } from '../components/cut-text';
import { ExceptedBadge } from '../components/exception-mark';
import { endpointContextControls, osFamilyControl } from '../components/endpoint-context-controls';
import { fixByControls } from '../components/fix-by-controls';
import type { FilterControl } from '../components/filter-bar';
import type { Column } from '../components/virtual-table';
import { WrappedText } from '../components/wrapped-text';
import { EpssCell, ExploitCell } from '../components/exploit-intel';
import { formatCvss, formatDate, orDash } from '../lib/format';
import { exposureColumns } from './exposure-columns';
import type { SortOrder } from './list-sort';
import { intelControls } from './intel-filter-controls';

type TextControl = Extract<FilterControl, { kind: 'text' }>;

/**
 * The control of a registry filter: of the filter's kind; a choice offers exactly the filter's
 * values, and an id is chosen by the name of the item it is the id of; a filter by the item's
 * endpoint has the control of the endpoints' filter it applies; a filter by intelligence has the control it names.
 */
type ControlOf<F> = F extends { kind: 'endpoint'; endpointFilter: infer E }
  ? ControlOf<E>
  : F extends { kind: 'intel'; control: 'choice'; values: infer V }
    ? { kind: 'choice'; label: string; values: V }
    : F extends { kind: 'intel'; control: infer K }
    ? Extract<FilterControl, { kind: K }>
    : F extends { kind: 'choice'; values: infer V }
    ? { kind: 'choice'; label: string; values: V }
    : F extends { kind: 'boolean' | 'uuid' | 'flag' | 'tag' }
      ? Extract<FilterControl, { kind: F['kind'] }>
      : TextControl;

/**
 * How a list view shows one collection (its title and noun are the registry's labels). The
 * filter bar has a control for the search (`q`) and for each filter of the collection's registry
 * entry, its console filters included, no more: a filter added to the registry does not compile
 * until its control is here.
 */
export interface ListDefinition<C extends CollectionName> {
  /** The controls by query parameter, in the order the filter bar shows them. */
  filters: { q: TextControl } & { [P in FilterParameter<C>]: ControlOf<Collections[C]['filters'][P]> } & {
    [P in ConsoleFilterParameter<C>]: ControlOf<Collections[C]['consoleFilters'][P]>;
  };
  /** The columns of the console's items; a column's sort key is one of the registry's. */
  columns: Column<ConsoleItem<C>, SortKey<C>>[];
  /** The order when the URL names none: the server's (`created_at`), or the one that matters most for the list. */
  defaultSort: SortOrder<SortKey<C>>;
  /**
   * Filters the view applies when the URL names none of them (`status=open`; `any` in the URL
   * lifts one), and what the view says of itself while it shows these filters in its default order.
   */
  defaultView?: { filters: Partial<Record<FilterParameter<C>, string>>; summary: string };
  /** The height of its rows in pixels, when its cells hold two lines (the virtual table's rows all have one height). */
  rowHeight?: number;
  /** Columns that say nothing when the list is filtered to one value of a filter (the status of a list of open findings): by column id, the filter. */
  columnsOfFilters?: Partial<Record<string, FilterParameter<C>>>;
}

/** Two lines of text and the row's padding: the rows of a list whose cells wrap or stack. */
const twoLineRow = 46;

/** The controls of the endpoints' filters; the findings and targets lists apply them to each item's endpoint. */
const endpointControls = {
  osFamily: osFamilyControl,
  hasAgent: { kind: 'boolean', label: 'Agent', yes: 'With agent', no: 'Without agent' },
  ...endpointContextControls,
} as const;

/**
 * The risk score's column with the endpoint's exploit probability under it, as a finding's EPSS
 * is under its CVSS score: a column of its own would cost the table its last one at 1,280 pixels.
 */
function withExploitProbability(risk: Column<ConsoleItem<'endpoints'>, SortKey<'endpoints'>>): Column<ConsoleItem<'endpoints'>, SortKey<'endpoints'>> {
  return {
    ...risk,
    cell: (e) => (
      <span className="stacked">
        {risk.cell(e)}
        <ExploitCell endpoint={e} />
      </span>
    ),
    second: {
      header: 'Exploit',
      description:
        "Chance that at least one of its open CVEs is exploited in 30 days (FIRST's EPSS), under the risk score; its CVEs the file does not score in its tooltip. " +
        '"No file" before an EPSS file is imported. Endpoints without a figure come last either way.',
      sortKey: 'exploit_probability_30d',
      descendingFirst: true,
    },
  };
}

const endpoints: ListDefinition<'endpoints'> = {
  filters: {
    q: { kind: 'text', label: 'Search', placeholder: 'Hostname or IP contains…' },
    ...endpointControls,
    ...fixByControls('With a finding of'),
  },
  // The exposure takes the room of the OS family (the OS's name says it) and of the discovery
  // date (on the detail page). In two-line rows the IP address goes under its hostname and the
  // OS's name wraps, its version after it: at 1,280 pixels the table fits with none of these cut.
  columns: [
    {
      id: 'hostname',
      header: 'Hostname',
      description: "Its criticality beside it, unless normal: it multiplies its findings' risk",
      width: 'minmax(11rem, 1.1fr)',
      cell: (e) => (
        <span className="stacked">
          <span className="hostname-cell">
            <span className="hostname-cell__name">{e.hostname}</span>
            <CriticalityBadge criticality={e.criticality} />
          </span>
          <span className="minor-text">{orDash(e.ip)}</span>
        </span>
      ),
      sortKey: 'hostname',
      second: { header: 'IP address' },
    },
    {
      id: 'os',
      header: 'OS',
      description: 'Operating system and version',
      width: 'minmax(8rem, 1fr)',
      cell: (e) => <WrappedText text={e.operating_system.name} minor={e.operating_system.version} />,
      sortKey: 'os_version',
    },
    ...exposureColumns<ConsoleItem<'endpoints'>>().map((column) => (column.id === 'risk' ? withExploitProbability(column) : column)),
    { id: 'agent', header: 'Agent', width: '3.5rem', cell: (e) => (e.agent_id ? orDash(e.agent_version) : 'none') },
    {
      id: 'updated',
      header: 'Last seen',
      width: '6.9rem',
      // The earliest fix-by date of its open findings under when it was last seen: two dates in one column's room.
      cell: (e) => (
        <span className="stacked">
          {formatDate(e.updated_at)}
          <span className="minor-text">{orDash(e.fix_by)}</span>
        </span>
      ),
      sortKey: 'updated_at',
      second: {
        header: 'Fix by',
        description: 'The earliest fix-by date (BOD 26-04) of its open findings; endpoints without one come last either way.',
        sortKey: 'fix_by',
      },
    },
  ],
  // The riskiest first: what to look at, and what to fix, before anything else.
  defaultSort: '-risk_score',
  rowHeight: twoLineRow,
};

const remediationTargets: ListDefinition<'remediationTargets'> = {
  filters: {
    q: { kind: 'text', label: 'Search', placeholder: 'Product, vendor or package…' },
    targetType: { kind: 'choice', label: 'Type', values: targetTypes },
    status: { kind: 'choice', label: 'Status', values: targetStatuses },
    endpointId: { kind: 'uuid', label: 'Endpoint', collection: 'endpoints' },
    ...endpointControls,
  },
  columns: [
    { id: 'product', header: 'Product', width: 'minmax(10rem, 2fr)', cell: (t) => <CutText text={t.product ?? t.package_name} />, sortKey: 'product' },
    { id: 'vendor', header: 'Vendor', width: 'minmax(7rem, 1fr)', cell: (t) => <CutText text={t.vendor} />, sortKey: 'vendor' },
    { id: 'version', header: 'Version', width: 'minmax(6rem, 1fr)', cell: (t) => <CutText text={t.version} />, sortKey: 'version' },
    { id: 'type', header: 'Type', width: '8rem', cell: (t) => t.target_type.replace('_', ' ') },
    { id: 'status', header: 'Status', width: '6rem', cell: (t) => <StatusBadge status={t.status} />, sortKey: 'status' },
    { id: 'cves', header: 'CVEs', width: '4rem', cell: (t) => t.associated_cves.length },
    { id: 'cvss', header: 'Max CVSS', width: '6.5rem', cell: (t) => formatCvss(t.highest_cvss_score), sortKey: 'highest_cvss_score', descendingFirst: true },
    { id: 'created', header: 'Added', width: '7.5rem', cell: (t) => formatDate(t.created_at), sortKey: 'created_at' },
  ],
  defaultSort: 'created_at',
};

const scopes: ListDefinition<'scopes'> = {
  filters: {
    q: { kind: 'text', label: 'Search', placeholder: 'Name contains…' },
    status: { kind: 'choice', label: 'Status', values: scopeStatuses },
  },
  columns: [
    { id: 'name', header: 'Name', width: 'minmax(12rem, 2fr)', cell: (s) => <CutText text={s.name} />, sortKey: 'name' },
    { id: 'status', header: 'Status', width: '7rem', cell: (s) => <StatusBadge status={s.status} />, sortKey: 'status' },
    { id: 'severity', header: 'Min severity', width: '7rem', cell: (s) => orDash(s.finding_filter.min_severity) },
    { id: 'os', header: 'OS families', width: 'minmax(11.5rem, 1fr)', cell: (s) => <CutText text={s.endpoint_filter.os_families?.join(', ')} /> },
    { id: 'description', header: 'Description', width: 'minmax(12rem, 3fr)', cell: (s) => <CutText text={s.description} /> },
    { id: 'created', header: 'Created', width: '7.5rem', cell: (s) => formatDate(s.created_at), sortKey: 'created_at' },
  ],
  defaultSort: 'created_at',
};

/** What a finding is: its CVE, how bad, and its title (the columns of its /v1 fields, then where it is, then where it stands). */
const findingWhat: Column<ConsoleItem<'findings'>, SortKey<'findings'>>[] = [
  {
    id: 'cve',
    header: 'CVE',
    width: '8.6rem',
    // "Excepted" under the CVE, not in the status column: a list of open findings drops that column.
    cell: (f) => (
      <span className="stacked">
        {f.cve_id}
        {f.status === 'open' ? <ExceptedBadge exception={f.exception} /> : null}
      </span>
    ),
    sortKey: 'cve_id',
  },
  {
    id: 'severity',
    header: 'Severity',
    // KEV under the severity: one badge column where two took the room of the title.
    width: '5rem',
    cell: (f) => (
      <span className="stacked">
        <SeverityBadge severity={f.severity} />
        <KevBadge isKev={f.is_kev} />
      </span>
    ),
    sortKey: 'severity',
    second: {
      header: 'KEV',
      description: 'In the Known Exploited Vulnerabilities catalog. Sorts by risk: KEV first, then by CVSS.',
      sortKey: 'risk',
      descendingFirst: true,
    },
  },
  {
    id: 'cvss',
    header: 'CVSS',
    // EPSS under the CVSS score: a column of its own would take the room the title needs at 1,280 pixels.
    width: '4.4rem',
    cell: (f) => (
      <span className="stacked">
        {formatCvss(f.cvss_score)}
        <EpssCell finding={f} />
      </span>
    ),
    sortKey: 'cvss_score',
    descendingFirst: true,
    second: {
      header: 'EPSS',
      description:
        "Chance of exploitation in 30 days (FIRST's EPSS), under the CVSS score; its score date, model and percentile in its tooltip. " +
        '"Unscored" where the EPSS file does not hold the CVE, "No file" before one is imported. Findings without a score come last either way.',
      sortKey: 'epss',
      descendingFirst: true,
    },
  },
  { id: 'title', header: 'Title', width: 'minmax(12rem, 3fr)', cell: (f) => <WrappedText text={f.title} /> },
];

/** Where a finding stands: open or remediated (an active exception is marked under its CVE). */
const findingState: Column<ConsoleItem<'findings'>, SortKey<'findings'>>[] = [
  {
    id: 'status',
    header: 'Status',
    description: 'Open or remediated. "Excepted" under the CVE marks an open finding an active exception leaves out of the gaps, the overdue counts and the risk figures.',
    width: '6.1rem',
    cell: (f) => <StatusBadge status={f.status} />,
    sortKey: 'status',
  },
];

/**
 * How long a finding has been open, and when it is due, overdue findings marked. The age takes
 * the place of the detection date (its tooltip), and sorts by it: the table fits 1,280 pixels.
 */
const findingDeadline: Column<ConsoleItem<'findings'>, SortKey<'findings'>>[] = [
  {
    id: 'age',
    header: 'Age',
    description: 'Days open: from first detection until now, or until remediated. Sorts by first detection, the oldest first.',
    width: '3.3rem',
    cell: (f) => <span title={`Detected ${formatDate(f.first_detected_at)}`}>{f.age_days === null ? '—' : `${f.age_days} d`}</span>,
    sortKey: 'first_detected_at',
  },
  {
    id: 'due',
    header: 'Due',
    description: deadlineExplanation,
    width: '7.8rem',
    cell: (f) => <DueDate dueAt={f.due_at} overdue={f.overdue} />,
    sortKey: 'due_at',
  },
];

/**
 * Where a finding is, as the console answers it: its host, and the product and version to
 * update. They take the room of the date it was added, which the date it was first detected
 * nearly always equals.
 */
const findingPlace: Column<ConsoleItem<'findings'>, SortKey<'findings'>>[] = [
  // "DESKTOP-A8EW98C" on one line; a longer name ("Christophers-MacBook-Pro") wraps at a hyphen.
  { id: 'host', header: 'Host', width: 'minmax(10rem, 1fr)', cell: (f) => <WrappedText text={f.endpoint_hostname} />, sortKey: 'endpoint_hostname' },
  {
    id: 'product',
    header: 'Product',
    // Two lines of "Microsoft 365 Apps for enterprise 16.0.16130.20714", the demo's longest.
    width: 'minmax(14rem, 1fr)',
    cell: (f) => <WrappedText text={f.target_product} minor={f.target_version} />,
    sortKey: 'target_product',
    second: { header: 'Version' },
  },
];

const findings: ListDefinition<'findings'> = {
  filters: {
    q: { kind: 'text', label: 'Search', placeholder: 'CVE, title or hostname contains…' },
    cveId: { kind: 'text', label: 'CVE', placeholder: 'CVE-2021-44228' },
    severity: { kind: 'choice', label: 'Severity', values: findingSeverities },
    status: { kind: 'choice', label: 'Status', values: findingStatuses },
    isKev: { kind: 'boolean', label: 'KEV', yes: 'KEV only', no: 'Not KEV' },
    endpointId: { kind: 'uuid', label: 'Endpoint', collection: 'endpoints' },
    remediationTargetId: { kind: 'uuid', label: 'Remediation target', collection: 'remediationTargets' },
    ...endpointControls,
    overdue: { kind: 'flag', label: 'Overdue only' },
    epssMin: { kind: 'text', label: 'EPSS at least', placeholder: '0.1' },
    epssPercentileMin: { kind: 'text', label: 'EPSS percentile at least', placeholder: '0.9' },
    kevRansomware: { kind: 'boolean', label: 'Ransomware use', yes: 'Known', no: 'Not known' },
    kevAddedSince: { kind: 'date', label: 'Known exploited since' },
    ...intelControls,
    ...fixByControls(),
  },
  columns: [...findingWhat, ...findingPlace, ...findingState, ...findingDeadline],
  // Open findings, riskiest first: what to fix before anything else.
  defaultSort: collectionBasics.findings.defaultView.query.sort,
  defaultView: {
    filters: { status: collectionBasics.findings.defaultView.query.status },
    summary: collectionBasics.findings.defaultView.summary,
  },
  rowHeight: twoLineRow,
  // Filtered to open findings (the default view), a status column would say "Open" on every row.
  columnsOfFilters: { status: 'status' },
};

/** The list definition of each collection. */
export const listDefinitions: { [C in CollectionName]: ListDefinition<C> } = { endpoints, remediationTargets, scopes, findings };

/**
 * A findings table's columns for the filters it asks, and its row height, for the views that list
 * findings of something (a scope's, the coverage gaps).
 */
export function findingTable(asked: ListFilters) {
  return { columns: shownColumns(findings, asked), rowHeight: findings.rowHeight };
}

/**
 * The columns a list shows for the filters it asks: without those that would repeat one value on
 * every row (`columnsOfFilters`: a status column when the list is filtered to one status).
 */
export function shownColumns<C extends CollectionName>(definition: ListDefinition<C>, asked: ListFilters): ListDefinition<C>['columns'] {
  const oneValue = (filter: string | undefined) => {
    const value = filter ? asked[filter] : undefined;
    return !!value && value !== 'any' && !value.includes(',');
  };
  return definition.columns.filter((column) => !oneValue(definition.columnsOfFilters?.[column.id]));
}
