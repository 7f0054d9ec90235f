import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { syncChangesKept } from '../../../contracts/console/sync-change-bounds';
import type { SyncChangeFinding, SyncChanges } from '../../../contracts/console/sync-changes';
import { organizationsQuery, syncOverviewQuery } from '../api/console-queries';
import { syncChangesQuery } from '../api/sync-changes-queries';
import { KevBadge, SeverityBadge } from '../components/badges';
import { QueryFrame } from '../components/query-state';
import { TableHead, figureColumns } from '../components/table-head';
import { formatCount, formatCounted, formatDateTime } from '../lib/format';
import { newlyOpenBreakdown } from '../lib/newly-open-breakdown';
import { paths } from '../lib/paths';
import { markSeen, seenKey } from '../lib/seen-sync-changes';
import { syncModeTitles } from '../lib/sync-status';
import { IntelChangeFeed } from './intel-organization';
import '../styles/sync-changes.css';
import { DoneCheckFeed } from '../components/done-still-vulnerable';

const collections = Object.keys(collectionBasics) as CollectionName[];

/**
 * What each sync of a replica changed, newest first: per sync its counts by collection, the
 * findings it made open critical or KEV and those it remediated, linked to their details. The
 * URL's `?sync=<id>` opens that sync (the notification's and the banner's link); otherwise the
 * newest is open. Showing the view counts as seeing the newest sync's news.
 */
export function SyncChangesView({ slug }: { slug: string }) {
  const organizations = useQuery(organizationsQuery());
  const organization = organizations.data?.find((o) => o.slug === slug);
  return (
    <section className="view" aria-labelledby="view-title">
      <header className="view__header">
        <h1 id="view-title">Changes</h1>
      </header>
      <QueryFrame
        query={organizations}
        what="the organization"
        empty={() => organization?.kind !== 'replica' && `“${organization?.name ?? slug}” is a local organization: its data lives here and no sync changes it.`}
      >
        {() => <ReplicaChanges slug={slug} />}
      </QueryFrame>
    </section>
  );
}

function ReplicaChanges({ slug }: { slug: string }) {
  const changes = useQuery(syncChangesQuery(slug));
  const [search] = useSearchParams();
  const selected = Number(search.get('sync')) || undefined;
  const status = useQuery(syncOverviewQuery()).data?.find((s) => s.org === slug);
  const latest = status?.latestChanges;
  useEffect(() => {
    if (latest) markSeen(seenKey(slug, latest));
  }, [slug, latest]);
  return (
    <>
      <p className="hint">
        What each sync changed, newest first: the last {syncChangesKept} syncs that changed something (a sync that changed nothing is not listed).{' '}
        {status?.state.lastSuccessAt ? `The last sync ended ${formatDateTime(status.state.lastSuccessAt)}.` : null}
      </p>
      <QueryFrame query={changes} what="the changes" empty={(data) => data.length === 0 && 'No sync of this replica has changed anything yet.'}>
        {/* Another sync selected (a second notification's link) opens afresh. */}
        {(data) => <SyncList key={selected} slug={slug} syncs={data} selected={selected} />}
      </QueryFrame>
      <DoneCheckFeed slug={slug} />
      <IntelChangeFeed slug={slug} heading={<h2>What intelligence imports changed</h2>} />
    </>
  );
}

/** The syncs, each opened or closed by the user; `selected` (a sync's id of the URL) starts open and scrolled to, else the newest starts open. */
function SyncList({ slug, syncs, selected }: { slug: string; syncs: SyncChanges[]; selected: number | undefined }) {
  const missing = selected !== undefined && !syncs.some((sync) => sync.id === selected);
  const [open, setOpen] = useState(() => new Set([missing || selected === undefined ? syncs[0]!.id : selected]));
  useEffect(() => {
    if (selected !== undefined && !missing) document.getElementById(`sync-${selected}`)?.scrollIntoView({ block: 'start' });
  }, [selected, missing]);
  const toggle = (id: number, isOpen: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (isOpen) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <>
      {missing ? <p className="notice">The changes of that sync are no longer kept: only the last {syncChangesKept} are.</p> : null}
      <ol className="sync-changes" aria-label="Syncs">
        {syncs.map((sync) => (
          <li key={sync.id} id={`sync-${sync.id}`} className={`sync-change${sync.id === selected ? ' sync-change--selected' : ''}`}>
            <details open={open.has(sync.id)} onToggle={(event) => toggle(sync.id, event.currentTarget.open)}>
              <summary>
                <span className="sync-change__title">
                  {syncModeTitles[sync.mode]}, {formatDateTime(sync.finishedAt)}
                </span>{' '}
                {sync.firstSync ? <span className="badge badge--status">First sync</span> : null}
                <span className="sync-change__summary">{summaryOf(sync)}</span>
              </summary>
              <SyncDetail slug={slug} sync={sync} />
            </details>
          </li>
        ))}
      </ol>
    </>
  );
}

/** A sync in a few words: what it did to the findings, else how many items it changed. */
function summaryOf(sync: SyncChanges): string {
  const parts: string[] = [];
  if (sync.newlyOpen.total > 0) parts.push(`${formatCount(sync.newlyOpen.total)} newly open critical or KEV`);
  if (sync.remediated.total > 0) parts.push(`${formatCount(sync.remediated.total)} remediated`);
  if (parts.length > 0) return parts.join(' · ');
  const items = collections.reduce((sum, c) => sum + sync.counts[c].created + sync.counts[c].updated + sync.counts[c].removed, 0);
  return `${formatCounted(items, 'item')} changed`;
}

function SyncDetail({ slug, sync }: { slug: string; sync: SyncChanges }) {
  const { total } = sync.newlyOpen;
  return (
    <div className="sync-change__detail">
      <table className="plain-table sync-change__counts">
        <caption className="visually-hidden">Items changed by collection</caption>
        <TableHead columns={['Collection', ...figureColumns(['Created', 'Updated', 'Removed'])]} />
        <tbody>
          {collections.map((collection) => (
            <tr key={collection}>
              <th scope="row">{collectionBasics[collection].labels.title}</th>
              <td className="num">{formatCount(sync.counts[collection].created)}</td>
              <td className="num">{formatCount(sync.counts[collection].updated)}</td>
              <td className="num">{formatCount(sync.counts[collection].removed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {sync.firstSync ? (
        <p className="hint">The replica's first sync: it held nothing before, so no finding is listed as newly open.</p>
      ) : (
        <>
          <FindingList
            slug={slug}
            title={`Newly open critical or KEV: ${formatCount(total)}`}
            detail={total > 0 ? newlyOpenBreakdown(sync.newlyOpen, 'KEV') : undefined}
            findings={sync.newlyOpen.findings}
            total={total}
          />
          <FindingList slug={slug} title={`Remediated: ${formatCount(sync.remediated.total)}`} findings={sync.remediated.findings} total={sync.remediated.total} />
        </>
      )}
    </div>
  );
}

function FindingList({ slug, title, detail, findings, total }: { slug: string; title: string; detail?: string; findings: SyncChangeFinding[]; total: number }) {
  return (
    <section className="sync-change__findings">
      <h3>
        {title}
        {detail ? <span className="sync-change__detail-counts"> ({detail})</span> : null}
      </h3>
      {findings.length > 0 ? (
        <table className="plain-table">
          <TableHead columns={['Finding', 'Severity', 'Endpoint']} />
          <tbody>
            {findings.map((finding) => (
              <tr key={finding.id}>
                <td>
                  <Link to={paths.item(slug, 'findings', finding.id)}>{finding.cve_id}</Link>
                </td>
                <td>
                  <SeverityBadge severity={finding.severity} /> <KevBadge isKev={finding.is_kev} />
                </td>
                <td>
                  {finding.endpoint_id ? <Link to={paths.item(slug, 'endpoints', finding.endpoint_id)}>{finding.endpoint_hostname ?? finding.endpoint_id}</Link> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {total > findings.length ? (
        <p className="hint">
          The first {formatCount(findings.length)} are listed; {formatCount(total - findings.length)} more {total - findings.length === 1 ? 'is' : 'are'} not.
        </p>
      ) : null}
    </section>
  );
}
