import { Link } from 'react-router';
import { AcceptFinding } from '../components/accept-finding';
import { DueDate, KevBadge, SeverityBadge, StatusBadge } from '../components/badges';
import { EndpointLink } from '../components/endpoint-link';
import { ExceptionLink } from '../components/exception-mark';
import { FieldList } from '../components/field-list';
import { TargetUpdateLine } from '../components/version-to-update-to';
import { formatCounted, formatCvss, formatDateTime, nvdUrl } from '../lib/format';
import { paths } from '../lib/paths';
import { DetailFrame } from './detail-frame';
import { KevEntry, epssSentence } from '../components/exploit-intel';
import { FixByPath } from '../components/fix-by-path';

/**
 * A vulnerability finding, linked to its endpoint (by hostname), its target (by product and
 * version), the CVE at NVD and the exception it is under, with the exceptions that accept it,
 * and beside its solution the version of its product to update to.
 */
export function FindingDetail({ slug, id }: { slug: string; id: string }) {
  return (
    <DetailFrame slug={slug} collection="findings" id={id} title={(f) => `${f.cve_id}: ${f.title}`}>
      {(f) => (
        <>
          <AcceptFinding slug={slug} finding={f} />
          <FieldList
            fields={[
              ['Id', <code key="id">{f.id}</code>],
              [
                'CVE',
                <a key="cve" href={nvdUrl(f.cve_id)} target="_blank" rel="noopener noreferrer">
                  {f.cve_id} at NVD<span className="visually-hidden"> (opens in a new window)</span>
                </a>,
              ],
              ['Severity', <SeverityBadge key="severity" severity={f.severity} />],
              ['CVSS score', formatCvss(f.cvss_score)],
              ['Known exploited', f.is_kev ? <KevBadge key="kev" isKev /> : 'No'],
              // The imported intelligence beside the remote's flag: FIRST's EPSS and the KEV catalogs' entry.
              ['EPSS', epssSentence(f)],
              ['KEV entry', <KevEntry key="kev-entry" kev={f.kev} />],
              ['Status', <StatusBadge key="status" status={f.status} />],
              ['Exception', f.exception ? <ExceptionLink key="exception" slug={slug} exception={f.exception} /> : 'None: counted in the gaps and the risk figures'],
              ['Endpoint', f.endpoint_id ? <EndpointLink key="endpoint" slug={slug} id={f.endpoint_id} hostname={f.endpoint_hostname} /> : null],
              [
                'Remediation target',
                f.remediation_target_id ? (
                  <Link to={paths.item(slug, 'remediationTargets', f.remediation_target_id)}>
                    {[f.target_product, f.target_version].filter(Boolean).join(' ') || 'Open remediation target'}
                  </Link>
                ) : null,
              ],
              ['Source', f.source],
              ['First detected', formatDateTime(f.first_detected_at)],
              ['Remediated', formatDateTime(f.remediated_at)],
              ['Age', f.age_days === null ? null : `${formatCounted(f.age_days, 'day')}${f.status === 'open' ? ' open' : ' to remediate'}`],
              ['Due', f.due_at === null ? 'No deadline' : <DueDate key="due" dueAt={f.due_at} overdue={f.overdue} />],
              // BOD 26-04's timeline and the Coordinator's decision, with every input and where it comes from.
              ['Fix by', <FixByPath key="fix-by" finding={f} />],
              ['Description', f.description],
              ['Solution', f.solution],
              // Beside the advisory's fix, what the fleet offers: the newest version seen and whether it is clean. A target
              // the replica does not hold has neither product nor version here: asking would only answer 404.
              [
                'Update to',
                f.remediation_target_id && (f.target_product !== null || f.target_version !== null) ? (
                  <TargetUpdateLine key="update" slug={slug} targetId={f.remediation_target_id} />
                ) : null,
              ],
              ['Created', formatDateTime(f.created_at)],
              ['Updated', formatDateTime(f.updated_at)],
            ]}
          />
        </>
      )}
    </DetailFrame>
  );
}
