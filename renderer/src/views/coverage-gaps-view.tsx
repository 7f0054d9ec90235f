import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, useNavigate } from 'react-router';
import type { CoverageGaps } from '../../../contracts/console/coverage';
import { coverageGapsPageQuery, coverageGapsQuery } from '../api/console-queries';
import { CoverageFigures, UnevaluatedNotice } from '../components/coverage-summary';
import { QueryFrame } from '../components/query-state';
import { VirtualTable } from '../components/virtual-table';
import { formatCount, formatCounted } from '../lib/format';
import { openFromTable } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { findingTable } from './list-definitions';

/** Open critical, high or KEV findings that no active scope covers. */
export function CoverageGapsView({ slug }: { slug: string }) {
  const gaps = useQuery(coverageGapsQuery(slug));
  const navigate = useNavigate();
  const pageQuery = useCallback((offset: number) => coverageGapsPageQuery(slug, offset), [slug]);
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Coverage gaps</h1>
      </header>
      <p className="hint">
        Open findings that are critical, high or in the KEV catalog, and that no <Link to={paths.list(slug, 'scopes', { status: 'active' })}>active scope</Link> covers.
      </p>
      <QueryFrame query={gaps} what="coverage gaps">
        {(data) => (
          <>
            <GapsSentence slug={slug} gaps={data} />
            <UnevaluatedNotice criteria={data.unevaluated} scopeLink={(scopeId) => paths.item(slug, 'scopes', scopeId)} />
            <CoverageFigures counts={data.counts} label="Uncovered findings" />
            <VirtualTable
              label="Uncovered findings"
              // Gaps are open findings.
              {...findingTable({ status: 'open' })}
              pageQuery={pageQuery}
              onOpen={(finding) => navigate(paths.item(slug, 'findings', finding.id), openFromTable)}
              emptyMessage="Every open critical, high or KEV finding is covered by an active scope."
            />
          </>
        )}
      </QueryFrame>
    </section>
  );
}

/** How many findings no active scope covers, and how many of them remain once active exceptions leave theirs out. */
function GapsSentence({ slug, gaps }: { slug: string; gaps: CoverageGaps }) {
  const { counts, countsBeforeExceptions } = gaps;
  const excepted = countsBeforeExceptions.findings - counts.findings;
  return (
    <p>
      {formatCount(countsBeforeExceptions.findings)} of {formatCounted(gaps.candidates, 'such finding')} {gaps.candidates === 1 ? 'is' : 'are'} not covered by any
      of the {formatCounted(gaps.activeScopes, 'active scope')}
      {excepted > 0 ? (
        <>
          , {formatCount(counts.findings)} after <Link to={paths.exceptions(slug, { state: 'active' })}>exceptions</Link> ({formatCount(excepted)} excepted, not listed)
        </>
      ) : null}
      .
    </p>
  );
}
