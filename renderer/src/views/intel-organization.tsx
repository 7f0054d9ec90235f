import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { intelChangesKept } from '../../../contracts/console/threat-intel-basics';
import type { IntelChange, IntelChangeCve, KevAgreement } from '../../../contracts/console/threat-intel-changes';
import { intelChangesQuery, kevAgreementQuery } from '../api/threat-intel-queries';
import { QueryFrame } from '../components/query-state';
import { TableHead } from '../components/table-head';
import { formatCount, formatCounted, formatDate, formatDateTime } from '../lib/format';
import { paths } from '../lib/paths';
import { formatEpss, intelKindLabels, kevSourceLabels } from './intel-labels';

/** "The remote flags 12 open findings as KEV not in CISA 2025.08.25; 7 listed there are not flagged", each count linked to the findings it counts. */
function AgreementSentence({ slug, agreement }: { slug: string; agreement: KevAgreement }) {
  const catalogs = agreement.catalogs.map((catalog) => `${kevSourceLabels[catalog.source]} ${catalog.version ?? formatDate(catalog.source_date)}`).join(' nor ');
  const findings = (filter: 'kevNotListed' | 'kevListedNotFlagged') => paths.list(slug, 'findings', { [filter]: 'true' });
  return (
    <p className="intel-agreement">
      The remote flags <Link to={findings('kevNotListed')}>{formatCounted(agreement.flagged_not_listed, 'open finding')}</Link> as KEV not in {catalogs};{' '}
      <Link to={findings('kevListedNotFlagged')}>{formatCount(agreement.listed_not_flagged)}</Link> listed there {agreement.listed_not_flagged === 1 ? 'is' : 'are'} not flagged.
    </p>
  );
}

/** The CVEs of one change, each with the endpoints and plan steps of its open findings. */
function ChangeCves({ slug, cves, epss }: { slug: string; cves: IntelChangeCve[]; epss: boolean }) {
  return (
    <table className="plain-table">
      <TableHead columns={['CVE', epss ? 'EPSS before → after' : 'Catalog, date added', 'Endpoints', 'Plan steps']} />
      <tbody>
        {cves.map((cve) => (
          <tr key={cve.cve_id}>
            <td>
              <Link to={paths.list(slug, 'findings', { cveId: cve.cve_id })}>{cve.cve_id}</Link>
            </td>
            <td>
              {epss ? (
                <Link to={paths.threatIntelligence(slug, cve.cve_id)} title="Its EPSS history">
                  {cve.epss_before === null ? 'not scored' : formatEpss(cve.epss_before)} → {cve.epss_after === null ? 'not scored' : formatEpss(cve.epss_after)}
                </Link>
              ) : (
                `${cve.source ? kevSourceLabels[cve.source] : ''}, ${cve.date_added ?? ''}`
              )}
            </td>
            <td>
              {cve.endpoints.map((endpoint, index) => (
                <span key={endpoint.id}>
                  {index > 0 ? ', ' : null}
                  <Link to={paths.item(slug, 'endpoints', endpoint.id)}>{endpoint.hostname ?? endpoint.id}</Link>
                </span>
              ))}
              <MoreOf total={cve.endpoints_total} listed={cve.endpoints.length} to={paths.list(slug, 'findings', { cveId: cve.cve_id })} />
            </td>
            <td>
              {cve.plan_steps.map((step, index) => (
                <span key={step.product_id}>
                  {index > 0 ? ', ' : null}
                  <Link to={paths.softwareProduct(slug, step.product_id)}>{[step.vendor, step.product].filter(Boolean).join(' ')}</Link>
                </span>
              ))}
              <MoreOf total={cve.plan_steps_total} listed={cve.plan_steps.length} to={paths.list(slug, 'findings', { cveId: cve.cve_id })} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** ", and N more", linked to the CVE's findings, where a change lists only the first of a CVE's endpoints or plan steps. */
function MoreOf({ total, listed, to }: { total: number; listed: number; to: string }) {
  return total > listed ? (
    <>
      {', '}
      <Link to={to}>and {formatCount(total - listed)} more</Link>
    </>
  ) : null;
}

function ChangeItem({ slug, change }: { slug: string; change: IntelChange }) {
  return (
    <li className="intel-change">
      <h4>
        {intelKindLabels[change.kind]} of {formatDateTime(change.source_date)}
        {change.version ? ` (${change.version})` : ''}, imported {formatDateTime(change.recorded_at)}
      </h4>
      {change.model_changed_from !== null ? (
        <p className="notice">
          The EPSS model changed from {change.model_changed_from} to {change.version}: its scores are not comparable with the previous ones, and no change is computed across them.
        </p>
      ) : null}
      {change.newly_kev.total > 0 ? (
        <>
          <p>Newly listed in KEV: {formatCounted(change.newly_kev.total, 'CVE')} of open findings.</p>
          <ChangeCves slug={slug} cves={change.newly_kev.cves} epss={false} />
        </>
      ) : null}
      {change.epss_crossed.cves.length > 0 ? (
        <>
          <p>
            EPSS crossed {change.epss_threshold}: {formatCount(change.epss_crossed.up)} up, {formatCount(change.epss_crossed.down)} down.
          </p>
          <ChangeCves slug={slug} cves={change.epss_crossed.cves} epss />
        </>
      ) : null}
    </li>
  );
}

/** The organization's side of the intelligence: where its `is_kev` and the catalogs disagree, and what each import changed for it. */
export function IntelOrganization({ slug }: { slug: string }) {
  const agreement = useQuery(kevAgreementQuery(slug));
  return (
    <section aria-labelledby="intel-org-title">
      <h2 id="intel-org-title">In this organization</h2>
      <h3>The remote&apos;s KEV flag and the catalogs</h3>
      <QueryFrame
        query={agreement}
        what="the KEV comparison"
        empty={(data) => data.catalogs.length === 0 && 'No KEV catalog is imported: import one to compare it with the remote’s flag.'}
      >
        {(data) => <AgreementSentence slug={slug} agreement={data} />}
      </QueryFrame>
      <IntelChangeFeed slug={slug} heading={<h3>What the imports changed</h3>} />
    </section>
  );
}

/**
 * What each intelligence import changed for the organization, newest first: shown in the
 * Threat intelligence view and beside a replica's sync changes (its change feed).
 */
export function IntelChangeFeed({ slug, heading }: { slug: string; heading: ReactNode }) {
  const changes = useQuery(intelChangesQuery(slug));
  return (
    <>
      {heading}
      <p className="hint">
        Each import records here the CVEs of open findings newly listed in a KEV catalog, and those whose EPSS crossed the threshold; the last {intelChangesKept} are kept. The first file of
        a kind changes nothing: there is nothing to compare it with.
      </p>
      <QueryFrame query={changes} what="the changes" empty={(data) => data.length === 0 && 'No import has changed anything for this organization yet.'}>
        {(data) => (
          <ol className="intel-changes" aria-label="Import changes">
            {data.map((change) => (
              <ChangeItem key={change.id} slug={slug} change={change} />
            ))}
          </ol>
        )}
      </QueryFrame>
    </>
  );
}
