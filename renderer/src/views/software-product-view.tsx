import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import { softwareProductQuery, softwareVersionsPageQuery } from '../api/software-queries';
import { ExposureFigures } from '../components/exposure-figures';
import { QueryFrame } from '../components/query-state';
import { UpdateToLine } from '../components/version-to-update-to';
import { VirtualTable } from '../components/virtual-table';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { productLabel } from '../lib/software-names';
import { versionColumns } from './software-columns';
import { useTableUrl } from './use-table-url';

/** A product of the software view: its figures, the version to update it to, and its versions, riskiest first; a version opens its installs. */
export function SoftwareProductView({ slug, productId }: { slug: string; productId: string }) {
  const product = useQuery(softwareProductQuery(slug, productId));
  const url = useTableUrl();
  const navigate = useNavigate();
  const pageQuery = useCallback((offset: number) => softwareVersionsPageQuery(slug, productId, offset), [slug, productId]);
  return (
    <section className="view view--detail" aria-labelledby="view-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={paths.software(slug)} aria-keyshortcuts="Escape">
          ← Software
        </Link>
      </nav>
      <QueryFrame query={product} what="the product" errorHeading={<h1 id="view-title">Product</h1>}>
        {(data) => (
          <>
            <h1 id="view-title">{productLabel(data.product)}</h1>
            <ExposureFigures
              label="Figures of the product"
              exposure={data.product}
              leading={[
                ['Versions', data.product.versions],
                ['Endpoints', data.product.endpoints],
              ]}
              exploit={data.product}
            />
            <UpdateToLine slug={slug} productId={productId} update={data.update_to} />
            <section className="related" aria-labelledby="versions-title">
              <header className="related__header">
                <h2 id="versions-title">Versions</h2>
              </header>
              <VirtualTable
                label="Versions"
                columns={versionColumns}
                pageQuery={pageQuery}
                initialTopRow={url.initialTopRow}
                initialActiveRow={url.initialActiveRow}
                onViewChange={url.onViewChange}
                onOpen={(version) => navigate(paths.softwareVersion(slug, productId, version.id), openFromTable)}
                emptyMessage="This product has no versions."
              />
            </section>
          </>
        )}
      </QueryFrame>
    </section>
  );
}
