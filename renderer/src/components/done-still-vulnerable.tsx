import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { StillVulnerable } from '../../../contracts/console/work-packages';
import { workPackageChecksQuery, workPackagesQuery } from '../api/work-package-queries';
import { formatDateTime } from '../lib/format';
import { paths } from '../lib/paths';
import { productLabel } from '../lib/software-names';

/** Hostnames shown per step before "and N more" (the export and the API list more). */
const hostnamesShown = 10;

/** The sentence of a flagged step, and its endpoints. */
function Flag({ label, flag }: { label: string; flag: StillVulnerable }) {
  const more = flag.endpoints - Math.min(hostnamesShown, flag.hostnames.length);
  return (
    <li>
      <strong>{label}</strong>: {flag.sentence}
      <span className="still-vulnerable__hosts">
        {' '}
        {flag.hostnames.slice(0, hostnamesShown).join(', ')}
        {more > 0 ? `, and ${more} more` : ''}
      </span>
    </li>
  );
}

/**
 * The dashboard's "done but still vulnerable": the steps whose ticket is done and whose findings
 * the check after the last sync found still open, with their endpoints; nothing when none is.
 */
export function DoneStillVulnerableCard({ slug }: { slug: string }) {
  const flagged = useQuery(workPackagesQuery(slug, { status: 'still-vulnerable' })).data?.data ?? [];
  if (flagged.length === 0) return null;
  return (
    <section className="still-vulnerable notice" aria-labelledby="still-vulnerable-title">
      <h2 id="still-vulnerable-title">Done but still vulnerable</h2>
      <ul>
        {flagged.map((work) => (
          <Flag key={work.external_id} label={productLabel(work)} flag={work.still_vulnerable!} />
        ))}
      </ul>
      <Link to={`${paths.remediationPlan(slug)}?status=still-vulnerable`}>These steps in the remediation plan</Link>
    </section>
  );
}

/** The change feed's entries of the checks after syncs that found done steps still vulnerable, newest first. */
export function DoneCheckFeed({ slug }: { slug: string }) {
  const checks = useQuery(workPackageChecksQuery(slug)).data?.data ?? [];
  if (checks.length === 0) return null;
  return (
    <section className="still-vulnerable" aria-labelledby="done-checks-title">
      <h2 id="done-checks-title">Done in the ticket system, still vulnerable after a sync</h2>
      <ol>
        {checks.map((check) => (
          <li key={check.id}>
            Checked {formatDateTime(check.checked_at)}
            <ul>
              {check.flagged.map((flag) => (
                <Flag key={flag.external_id} label={productLabel(flag)} flag={flag} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
