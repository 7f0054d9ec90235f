import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { VersionToUpdateTo } from '../../../contracts/console/version-to-update-to';
import { targetUpdateQuery } from '../api/software-queries';
import { formatCounted as counted } from '../lib/format';
import { paths } from '../lib/paths';
import { productLabel } from '../lib/software-names';

/** What the newest version seen carries: its installs, their endpoints, its open findings, and the versions left out of the order. */
function updateFigures(update: VersionToUpdateTo): string {
  const parts =
    update.version === null
      ? []
      : [`${counted(update.installs, 'install')} on ${counted(update.endpoints, 'endpoint')}`, counted(update.open_findings, 'open finding')];
  if (update.unreadable_versions) parts.push(`${counted(update.unreadable_versions, 'version')} not read as a version, left out`);
  return parts.join(' · ');
}

/**
 * The version to update a product to, as the server words it ("Update to V (run by N
 * endpoints, no open critical or KEV finding)", or that no version seen in the fleet is clean),
 * with its installs and open findings and a link to its installs.
 */
export function UpdateToLine({ slug, productId, update }: { slug: string; productId: string; update: VersionToUpdateTo }) {
  const figures = updateFigures(update);
  return (
    <p className={`update-to update-to--${update.verdict.replace('_', '-')}`} data-testid="update-to">
      <span className="update-to__sentence">{update.sentence}</span>
      {update.version_id !== null ? (
        <>
          {' '}
          <Link to={paths.softwareVersion(slug, productId, update.version_id)}>Its installs</Link>
        </>
      ) : null}
      {figures ? <span className="update-to__figures">{figures}</span> : null}
    </p>
  );
}

/** The version to update a remediation target's product to, beside a finding's solution or on the target's page. */
export function TargetUpdateLine({ slug, targetId }: { slug: string; targetId: string }) {
  const answer = useQuery(targetUpdateQuery(slug, targetId));
  if (answer.isPending) return <span className="count--zero">Looking at the fleet's versions…</span>;
  if (answer.isError) return <span className="count--zero">Not known: {answer.error.message}</span>;
  const { product_id, runs_newest, update_to } = answer.data;
  return (
    <div className="target-update">
      <UpdateToLine slug={slug} productId={product_id} update={update_to} />
      {runs_newest ? <p className="hint">This install already runs that version.</p> : null}
      <p className="hint">
        <Link to={paths.softwareProduct(slug, product_id)}>{productLabel(answer.data)} in the software view</Link>
      </p>
    </div>
  );
}
