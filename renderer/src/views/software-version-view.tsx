import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { type SoftwareInstallRow, softwareInstallsPageQuery, softwareVersionQuery } from '../api/software-queries';
import { ExposureFigures } from '../components/exposure-figures';
import { QueryFrame } from '../components/query-state';
import { VirtualTable } from '../components/virtual-table';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { productLabel, versionLabel } from '../lib/software-names';
import { installColumns } from './software-columns';
import { useTableUrl } from './use-table-url';

interface SoftwareVersionViewProps {
  slug: string;
  productId: string;
  versionId: string;
}

/**
 * A version of a product: its figures and its installs (remediation targets) with their
 * endpoints, riskiest first. An install opens the target's open findings; its endpoint's name
 * opens the endpoint.
 */
export function SoftwareVersionView({ slug, productId, versionId }: SoftwareVersionViewProps) {
  const version = useQuery(softwareVersionQuery(slug, productId, versionId));
  const url = useTableUrl();
  const navigate = useNavigate();
  const pageQuery = useCallback((offset: number) => softwareInstallsPageQuery(slug, productId, versionId, offset), [slug, productId, versionId]);
  const columns = useMemo(() => installColumns(slug), [slug]);
  const openFindings = useCallback(
    (install: SoftwareInstallRow) => navigate(paths.list(slug, 'findings', { remediationTargetId: install.target_id, status: 'open' }), openFromTable),
    [navigate, slug],
  );
  const product = version.data?.product;
  return (
    <section className="view view--detail" aria-labelledby="view-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.software(slug)}>← Software</Link>
        {' / '}
        <Link to={paths.softwareProduct(slug, productId)} aria-keyshortcuts="Escape">
          {product ? productLabel(product) : 'Product'}
        </Link>
      </nav>
      <QueryFrame query={version} what="the version" errorHeading={<h1 id="view-title">Version</h1>}>
        {(data) => (
          <>
            <h1 id="view-title">
              {productLabel(data.product)} {versionLabel(data.version.version)}
            </h1>
            <ExposureFigures label="Figures of the version" exposure={data.version} leading={[['Endpoints', data.version.endpoints]]} />
            <section className="related" aria-labelledby="installs-title">
              <header className="related__header">
                <h2 id="installs-title">Installs</h2>
                <p className="hint">A row opens the open findings of its remediation target; the endpoint&apos;s name opens the endpoint.</p>
              </header>
              <VirtualTable
                label="Installs"
                columns={columns}
                pageQuery={pageQuery}
                initialTopRow={url.initialTopRow}
                initialActiveRow={url.initialActiveRow}
                onViewChange={url.onViewChange}
                onOpen={openFindings}
                emptyMessage="No remediation target has this version."
              />
            </section>
          </>
        )}
      </QueryFrame>
    </section>
  );
}
