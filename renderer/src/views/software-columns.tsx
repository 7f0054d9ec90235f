import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import type { SoftwareListProduct, SoftwareSortKey, SoftwareVersion } from '../../../contracts/console/software';
import type { SoftwareInstallRow } from '../api/software-queries';
import { StatusBadge } from '../components/badges';
import { CutText } from '../components/cut-text';
import type { Column } from '../components/virtual-table';
import { formatCount, orDash } from '../lib/format';
import { paths } from '../lib/paths';
import { versionLabel } from '../lib/software-names';
import { exposureColumns } from './exposure-columns';

// A click on a link in a row must not also open the row (the row's click would navigate elsewhere).
const keepToLink = (event: MouseEvent) => event.stopPropagation();

/**
 * The version to update a product to, in its row: the version, a link to its installs, when it
 * is clean; "None clean" when the newest seen is not; a dash when no version seen reads as one.
 * The server's sentence is the tooltip.
 */
function UpdateToCell({ slug, product }: { slug: string; product: SoftwareListProduct }) {
  const { verdict, version_id, version, sentence } = product.update_to;
  if (verdict === 'update_to' && version_id !== null) {
    return (
      <Link to={paths.softwareVersion(slug, product.id, version_id)} title={sentence} onClick={keepToLink}>
        {version}
      </Link>
    );
  }
  if (verdict === 'none_clean') {
    return (
      <span className="update-to-cell--none-clean" title={sentence}>
        None clean
      </span>
    );
  }
  return (
    <span className="count--zero" title={sentence}>
      {orDash(null)}
    </span>
  );
}

/** The software list's columns: a product, its versions and endpoints, its exposure, and the version to update it to. */
export function productColumns(slug: string): Column<SoftwareListProduct, SoftwareSortKey>[] {
  return [
    { id: 'vendor', header: 'Vendor', width: 'minmax(5rem, 0.8fr)', cell: (p) => <CutText text={p.vendor} />, sortKey: 'vendor' },
    { id: 'product', header: 'Product', width: 'minmax(7.5rem, 1.6fr)', cell: (p) => <CutText text={p.product} />, sortKey: 'product' },
    { id: 'versions', header: 'Versions', width: '5.2rem', cell: (p) => formatCount(p.versions), sortKey: 'versions' },
    { id: 'endpoints', header: 'Endpoints', width: '5.8rem', cell: (p) => formatCount(p.endpoints), sortKey: 'endpoints' },
    ...exposureColumns<SoftwareListProduct>(),
    {
      id: 'update-to',
      header: 'Update to',
      width: 'minmax(9rem, 1fr)',
      cell: (p) => <UpdateToCell slug={slug} product={p} />,
      description: 'The newest version seen in the fleet, when it has no open critical or KEV finding; "None clean" when it has some',
    },
  ];
}

/** A product's versions: the version, its endpoints and its exposure (the product's answer orders them, riskiest first). */
export const versionColumns: Column<SoftwareVersion>[] = [
  { id: 'version', header: 'Version', width: 'minmax(8rem, 2fr)', cell: (v) => versionLabel(v.version) },
  { id: 'endpoints', header: 'Endpoints', width: '5.8rem', cell: (v) => formatCount(v.endpoints) },
  // Unsorted: the columns of a table without `onSort` are plain headers.
  ...exposureColumns<SoftwareVersion>(),
];

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
