import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { Exposure, ExposureSortKey } from '../../../contracts/console/exposure';
import type { SoftwareProduct, SoftwareSortKey, SoftwareVersion } from '../../../contracts/console/software';
import { findingSeverities } from '../../../contracts/enums';
import type { SoftwareInstallRow } from '../api/software-queries';
import { StatusBadge } from '../components/badges';
import type { Column } from '../components/virtual-table';
import { formatCount, orDash } from '../lib/format';
import { paths } from '../lib/paths';
import { versionLabel } from '../lib/software-names';

/** A count of open findings; a zero is muted, so that the counts that matter stand out. */
function Count({ value, className = '' }: { value: number; className?: string }) {
  return <span className={value === 0 ? 'count count--zero' : `count ${className}`}>{formatCount(value)}</span>;
}

/** A name a narrow cell may cut short, whole in its tooltip. */
function Name({ text }: { text: string | null }) {
  return <span title={text ?? undefined}>{orDash(text)}</span>;
}

/** A CVSS score with one decimal, as NVD writes it. */
export function formatCvss(score: number | null): string {
  return score === null ? '—' : score.toFixed(1);
}

/**
 * The columns of what an item's open findings expose, the same in every table of the software
 * views: open findings by severity, open KEV findings, the highest open CVSS, the risk score.
 */
function exposureColumns<T extends Exposure>(): Column<T, ExposureSortKey>[] {
  return [
    ...findingSeverities.map(
      (severity): Column<T, ExposureSortKey> => ({
        id: severity,
        header: severity[0]!.toUpperCase() + severity.slice(1),
        width: severity === 'critical' || severity === 'medium' ? '4.6rem' : '3.6rem',
        cell: (item) => <Count value={item.open_findings[severity]} className={`count--${severity}`} />,
        sortKey: `open_${severity}`,
      }),
    ),
    { id: 'kev', header: 'KEV', width: '3.4rem', cell: (item) => <Count value={item.open_kev_findings} className="count--kev" />, sortKey: 'open_kev_findings' },
    { id: 'cvss', header: 'Max CVSS', width: '5.6rem', cell: (item) => formatCvss(item.highest_open_cvss), sortKey: 'highest_open_cvss' },
    { id: 'risk', header: 'Risk', width: '4.6rem', cell: (item) => <strong>{formatCount(item.risk_score)}</strong>, sortKey: 'risk_score' },
  ];
}

/** The software list's columns: a product, its versions and endpoints, and its exposure. */
export const productColumns: Column<SoftwareProduct, SoftwareSortKey>[] = [
  { id: 'vendor', header: 'Vendor', width: 'minmax(6rem, 1fr)', cell: (p) => <Name text={p.vendor} />, sortKey: 'vendor' },
  { id: 'product', header: 'Product', width: 'minmax(8rem, 1.6fr)', cell: (p) => <Name text={p.product} />, sortKey: 'product' },
  { id: 'versions', header: 'Versions', width: '5.2rem', cell: (p) => formatCount(p.versions), sortKey: 'versions' },
  { id: 'endpoints', header: 'Endpoints', width: '5.8rem', cell: (p) => formatCount(p.endpoints), sortKey: 'endpoints' },
  ...exposureColumns<SoftwareProduct>(),
];

/** A product's versions: the version, its endpoints and its exposure (the product's answer orders them, riskiest first). */
export const versionColumns: Column<SoftwareVersion>[] = [
  { id: 'version', header: 'Version', width: 'minmax(8rem, 2fr)', cell: (v) => versionLabel(v.version) },
  { id: 'endpoints', header: 'Endpoints', width: '5.8rem', cell: (v) => formatCount(v.endpoints) },
  // Unsorted: the columns of a table without `onSort` are plain headers.
  ...exposureColumns<SoftwareVersion>(),
];

// A click on a link in a row must not also open the row (the row's click would navigate elsewhere).
const keepToLink = (event: MouseEvent) => event.stopPropagation();

/**
 * A version's installs: the endpoint (a link to it, when the organization holds it), the
 * target's status and what its open findings expose. The row itself opens the target's open findings.
 */
export function installColumns(slug: string): Column<SoftwareInstallRow>[] {
  return [
    {
      id: 'hostname',
      header: 'Endpoint',
      width: 'minmax(10rem, 2fr)',
      cell: (i) =>
        i.endpoint_id && i.hostname ? (
          <Link to={paths.item(slug, 'endpoints', i.endpoint_id)} onClick={keepToLink}>
            {i.hostname}
          </Link>
        ) : (
          <span className="count--zero">{i.endpoint_id ? 'Endpoint not held here' : 'No endpoint'}</span>
        ),
    },
    { id: 'status', header: 'Target status', width: '7.5rem', cell: (i) => <StatusBadge status={i.target_status} /> },
    ...exposureColumns<SoftwareInstallRow>(),
  ];
}
