import type { Endpoint } from '../../../contracts/endpoint';
import type { RemediationTarget } from '../../../contracts/remediation-target';
import type { Scope } from '../../../contracts/scope';
import type { FindingSeverity } from '../../../contracts/enums';
import type { VulnerabilityFinding } from '../../../contracts/vulnerability-finding';
import type { CollectionItems, CollectionPath } from '../api/collections';
import { KevBadge, SeverityBadge, StatusBadge } from '../components/badges';
import type { Column } from '../components/virtual-table';
import { formatDate, orDash } from '../lib/format';

/** A filter control of a list: a choice among values, or free text. */
export type FilterControl =
  | { name: string; label: string; kind: 'select'; options: readonly { value: string; label: string }[] }
  | { name: string; label: string; kind: 'text'; placeholder: string; pattern?: string };

const choice = (values: readonly string[]) => values.map((value) => ({ value, label: value.replace('_', ' ') }));
const booleanChoice = (yes: string, no: string) => [
  { value: 'true', label: yes },
  { value: 'false', label: no },
];
const uuidPattern = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const severities = ['critical', 'high', 'medium', 'low', 'info'] as const satisfies readonly FindingSeverity[];
const targetTypes = ['software', 'os_patch', 'configuration', 'service'] as const satisfies readonly RemediationTarget['target_type'][];
const targetStatuses = ['active', 'stale', 'resolved'] as const satisfies readonly RemediationTarget['status'][];
const scopeStatuses = ['active', 'paused', 'archived'] as const satisfies readonly Scope['status'][];
const findingStatuses = ['open', 'remediated'] as const satisfies readonly VulnerabilityFinding['status'][];

/** How a list view shows one collection. */
export interface ListDefinition<T> {
  title: string;
  /** What a row is, for messages: "endpoint". */
  noun: string;
  filters: FilterControl[];
  columns: Column<T>[];
}

const endpoints: ListDefinition<Endpoint> = {
  title: 'Endpoints',
  noun: 'endpoint',
  filters: [
    { name: 'q', label: 'Search', kind: 'text', placeholder: 'Hostname or IP contains…' },
    { name: 'osFamily', label: 'OS family', kind: 'select', options: choice(['macos', 'windows', 'linux']) },
    { name: 'hasAgent', label: 'Agent', kind: 'select', options: booleanChoice('With agent', 'Without agent') },
  ],
  columns: [
    { id: 'hostname', header: 'Hostname', width: 'minmax(12rem, 2fr)', cell: (e) => e.hostname, sortKey: 'hostname' },
    { id: 'ip', header: 'IP address', width: 'minmax(8rem, 1fr)', cell: (e) => orDash(e.ip) },
    { id: 'os', header: 'Operating system', width: 'minmax(10rem, 1.5fr)', cell: (e) => `${e.operating_system.name} ${e.operating_system.version ?? ''}`, sortKey: 'os_version' },
    { id: 'family', header: 'Family', width: '6rem', cell: (e) => e.operating_system.family, sortKey: 'os_family' },
    { id: 'agent', header: 'Agent', width: '7rem', cell: (e) => (e.agent_id ? orDash(e.agent_version) : 'none') },
    { id: 'updated', header: 'Last seen', width: '8rem', cell: (e) => formatDate(e.updated_at), sortKey: 'updated_at' },
    { id: 'created', header: 'Discovered', width: '8rem', cell: (e) => formatDate(e.created_at), sortKey: 'created_at' },
  ],
};

const remediationTargets: ListDefinition<RemediationTarget> = {
  title: 'Remediation targets',
  noun: 'remediation target',
  filters: [
    { name: 'q', label: 'Search', kind: 'text', placeholder: 'Product, vendor or package…' },
    { name: 'targetType', label: 'Type', kind: 'select', options: choice(targetTypes) },
    { name: 'status', label: 'Status', kind: 'select', options: choice(targetStatuses) },
    { name: 'endpointId', label: 'Endpoint id', kind: 'text', placeholder: 'uuid', pattern: uuidPattern },
  ],
  columns: [
    { id: 'product', header: 'Product', width: 'minmax(10rem, 2fr)', cell: (t) => orDash(t.product ?? t.package_name), sortKey: 'product' },
    { id: 'vendor', header: 'Vendor', width: 'minmax(7rem, 1fr)', cell: (t) => orDash(t.vendor), sortKey: 'vendor' },
    { id: 'version', header: 'Version', width: 'minmax(6rem, 1fr)', cell: (t) => orDash(t.version), sortKey: 'version' },
    { id: 'type', header: 'Type', width: '8rem', cell: (t) => t.target_type.replace('_', ' ') },
    { id: 'status', header: 'Status', width: '6rem', cell: (t) => <StatusBadge status={t.status} />, sortKey: 'status' },
    { id: 'cves', header: 'CVEs', width: '4rem', cell: (t) => t.associated_cves.length },
    { id: 'cvss', header: 'Max CVSS', width: '6.5rem', cell: (t) => orDash(t.highest_cvss_score), sortKey: 'highest_cvss_score' },
    { id: 'created', header: 'Added', width: '7.5rem', cell: (t) => formatDate(t.created_at), sortKey: 'created_at' },
  ],
};

const scopes: ListDefinition<Scope> = {
  title: 'Scopes',
  noun: 'scope',
  filters: [
    { name: 'q', label: 'Search', kind: 'text', placeholder: 'Name contains…' },
    { name: 'status', label: 'Status', kind: 'select', options: choice(scopeStatuses) },
  ],
  columns: [
    { id: 'name', header: 'Name', width: 'minmax(12rem, 2fr)', cell: (s) => s.name, sortKey: 'name' },
    { id: 'status', header: 'Status', width: '7rem', cell: (s) => <StatusBadge status={s.status} />, sortKey: 'status' },
    { id: 'severity', header: 'Min severity', width: '7rem', cell: (s) => orDash(s.finding_filter.min_severity) },
    { id: 'os', header: 'OS families', width: 'minmax(8rem, 1fr)', cell: (s) => orDash(s.endpoint_filter.os_families?.join(', ')) },
    { id: 'description', header: 'Description', width: 'minmax(12rem, 3fr)', cell: (s) => orDash(s.description) },
    { id: 'created', header: 'Created', width: '7.5rem', cell: (s) => formatDate(s.created_at), sortKey: 'created_at' },
  ],
};

const findings: ListDefinition<VulnerabilityFinding> = {
  title: 'Vulnerability findings',
  noun: 'finding',
  filters: [
    { name: 'q', label: 'Search', kind: 'text', placeholder: 'CVE, title or hostname contains…' },
    { name: 'cveId', label: 'CVE', kind: 'text', placeholder: 'CVE-2021-44228' },
    { name: 'severity', label: 'Severity', kind: 'select', options: choice(severities) },
    { name: 'status', label: 'Status', kind: 'select', options: choice(findingStatuses) },
    { name: 'isKev', label: 'KEV', kind: 'select', options: booleanChoice('KEV only', 'Not KEV') },
    { name: 'endpointId', label: 'Endpoint id', kind: 'text', placeholder: 'uuid', pattern: uuidPattern },
    { name: 'remediationTargetId', label: 'Target id', kind: 'text', placeholder: 'uuid', pattern: uuidPattern },
  ],
  columns: [
    { id: 'cve', header: 'CVE', width: '9rem', cell: (f) => f.cve_id, sortKey: 'cve_id' },
    { id: 'severity', header: 'Severity', width: '6.5rem', cell: (f) => <SeverityBadge severity={f.severity} />, sortKey: 'severity' },
    { id: 'kev', header: 'KEV', width: '3.5rem', cell: (f) => <KevBadge isKev={f.is_kev} /> },
    { id: 'cvss', header: 'CVSS', width: '4rem', cell: (f) => orDash(f.cvss_score), sortKey: 'cvss_score' },
    { id: 'title', header: 'Title', width: 'minmax(10rem, 3fr)', cell: (f) => f.title },
    { id: 'status', header: 'Status', width: '6.5rem', cell: (f) => <StatusBadge status={f.status} />, sortKey: 'status' },
    { id: 'detected', header: 'Detected', width: '7.5rem', cell: (f) => formatDate(f.first_detected_at), sortKey: 'first_detected_at' },
    { id: 'created', header: 'Added', width: '7.5rem', cell: (f) => formatDate(f.created_at), sortKey: 'created_at' },
  ],
};

/** The list definition of each collection. */
export const listDefinitions: { [C in CollectionPath]: ListDefinition<CollectionItems[C]> } = {
  endpoints,
  'remediation-targets': remediationTargets,
  scopes,
  'vulnerability-findings': findings,
};

/** The columns of a findings table, for the views that list findings of something. */
export const findingColumns = findings.columns;
