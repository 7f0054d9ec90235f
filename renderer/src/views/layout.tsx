import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { consoleViews, syncChangesPath } from '../../../contracts/console/views';
import { organizationsQuery, sessionQuery } from '../api/console-queries';
import { useRefreshAfterSync } from '../api/use-refresh-after-sync';
import { SignOutButton } from '../components/sign-out-button';
import { SyncAlertBanner } from '../components/sync-alert-banner';
import { SyncIndicator } from '../components/sync-indicator';
import { paths } from '../lib/paths';
import { useChosenValue } from '../lib/use-chosen-value';

/**
 * The frame of every organization's views: organization switcher, navigation (with a replica's
 * Changes), API address, the sessions, signing out (in a browser), and the news of syncs that brought new critical or KEV findings.
 */
export function Layout() {
  const { slug = '' } = useParams();
  useRefreshAfterSync();
  const organizations = useQuery(organizationsQuery());
  const replica = organizations.data?.find((o) => o.slug === slug)?.kind === 'replica';
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="topbar__name">Remediation Console</span>
        <OrganizationSwitcher slug={slug} />
        <SyncIndicator slug={slug} />
        <ApiAddress />
        <NavLink className="topbar__sessions" to={paths.sessions(slug)}>
          Sessions
        </NavLink>
        <SignOutButton />
      </header>
      <nav className="sidebar" aria-label="Views">
        <ul>
          {consoleViews.map(({ label, section }) => (
            <li key={label}>
              <NavLink to={paths.view(slug, section)} end={!section}>
                {label}
              </NavLink>
            </li>
          ))}
          {replica ? (
            <li>
              <NavLink to={syncChangesPath(slug)}>Changes</NavLink>
            </li>
          ) : null}
        </ul>
      </nav>
      <SyncAlertBanner />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

function OrganizationSwitcher({ slug }: { slug: string }) {
  const organizations = useQuery(organizationsQuery());
  const navigate = useNavigate();
  const location = useLocation();
  const id = useId();
  const current = organizations.data?.find((o) => o.slug === slug);
  // Another organization opens on the same view; ids and filters belong to the old one.
  const [shownSlug, setShownSlug] = useChosenValue(slug);
  const switchTo = (next: string) => {
    setShownSlug(next);
    const section = location.pathname.split('/')[3];
    navigate(paths.view(next, section ?? ''));
  };
  return (
    <div className="org-switcher">
      <label htmlFor={id}>Organization</label>
      <select id={id} value={shownSlug} onChange={(event) => switchTo(event.target.value)} disabled={!organizations.data}>
        {organizations.data?.map((o) => (
          <option key={o.slug} value={o.slug}>
            {o.name}
            {o.kind === 'replica' ? ' (replica)' : ''}
          </option>
        )) ?? <option value={slug}>{slug}</option>}
      </select>
      {current?.isDemo ? (
        <span className="badge badge--demo" title="Generated demo data, not a real organization">
          Demo
        </span>
      ) : null}
    </div>
  );
}

function ApiAddress() {
  const session = useQuery(sessionQuery());
  const address = session.data ? `${session.data.apiBaseUrl}/v1` : '…';
  return (
    <p className="topbar__api" title={address}>
      Loopback API: <code data-testid="api-address">{address}</code>
    </p>
  );
}
