import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type LoaderFunctionArgs, Navigate, type RouteObject, useParams } from 'react-router';
import { collectionBasics } from '../../../contracts/collection-basics';
import type { CollectionName } from '../../../contracts/collections';
import { dashboardQuery, organizationsQuery } from '../api/console-queries';
import { remediationPerformanceQuery, slaPolicyQuery } from '../api/deadline-queries';
import { remediationPlanQuery, softwareProductQuery } from '../api/software-queries';
import { syncChangesQuery } from '../api/sync-changes-queries';
import { syncChangesSection } from '../../../contracts/console/views';
import { queryClient } from '../api/query-client';
import { QueryFrame } from '../components/query-state';
import { escapeBack } from '../lib/opened-from-table';
import { paths } from '../lib/paths';
import { AgentConfigView } from './agent-config-view';
import { ApiKeysView } from './api-keys-view';
import { CoverageGapsView } from './coverage-gaps-view';
import { DashboardView } from './dashboard-view';
import { EndpointDetail } from './endpoint-detail';
import { ExceptionsView } from './exceptions-view';
import { FindingDetail } from './finding-detail';
import { IntelView } from './intel-view';
import { Layout } from './layout';
import { ListView, firstListPages } from './list-view';
import { OrganizationsView } from './organizations-view';
import { RemediationPerformanceView } from './remediation-performance-view';
import { ReportsView } from './reports-view';
import { RemediationPlanView } from './remediation-plan-view';
import { SavedViewsView } from './saved-views-view';
import { ScopeDetail } from './scope-detail';
import { SessionsView } from './sessions-view';
import { SoftwareProductView } from './software-product-view';
import { SoftwareVersionView } from './software-version-view';
import { SoftwareView, firstSoftwarePages } from './software-view';
import { SyncChangesView } from './sync-changes-view';
import { TagsView } from './tags-view';
import { TargetDetail } from './target-detail';
import { CliCommandText } from '../components/cli-command-text';

/** Opens the demo organization, or the first one. */
function Home() {
  const organizations = useQuery(organizationsQuery());
  return (
    <QueryFrame
      query={organizations}
      what="organizations"
      empty={(data) => data.length === 0 && <>There are no organizations yet: create one with <CliCommandText args="orgs create --slug SLUG --name NAME" />.</>}
    >
      {(data) => <Navigate to={paths.dashboard((data.find((o) => o.isDemo) ?? data[0]!).slug)} replace />}
    </QueryFrame>
  );
}

/** Renders a view with the organization slug (and item id) of the URL, keyed so that switching organization starts afresh. */
function withParams(render: (slug: string, id: string) => ReactNode) {
  function Routed() {
    const { slug = '', id = '' } = useParams();
    return <div key={`${slug}/${id}`}>{render(slug, id)}</div>;
  }
  return <Routed />;
}

/*
 * Loaders that only start fetching what a view shows first, as the navigation begins: the view
 * would ask for it once rendered and mounted, a render later. They do not wait for the answer;
 * the view shows its own loading state.
 */
const prefetchList =
  (collection: CollectionName) =>
  ({ params, request }: LoaderFunctionArgs) => {
    for (const page of firstListPages(params.slug ?? '', collection, new URL(request.url).searchParams)) void queryClient.prefetchQuery(page);
    return null;
  };
const prefetchDashboard = ({ params }: LoaderFunctionArgs) => {
  void queryClient.prefetchQuery(dashboardQuery(params.slug ?? ''));
  void queryClient.prefetchQuery(remediationPerformanceQuery(params.slug ?? ''));
  return null;
};

const prefetchSoftware = ({ params, request }: LoaderFunctionArgs) => {
  for (const page of firstSoftwarePages(params.slug ?? '', new URL(request.url).searchParams)) void queryClient.prefetchQuery(page);
  return null;
};
const prefetchProduct = ({ params }: LoaderFunctionArgs) => {
  void queryClient.prefetchQuery(softwareProductQuery(params.slug ?? '', params.id ?? ''));
  return null;
};
const prefetchPlan = ({ params }: LoaderFunctionArgs) => {
  void queryClient.prefetchQuery(remediationPlanQuery(params.slug ?? ''));
  return null;
};

const prefetchPerformance = ({ params }: LoaderFunctionArgs) => {
  void queryClient.prefetchQuery(remediationPerformanceQuery(params.slug ?? ''));
  void queryClient.prefetchQuery(slaPolicyQuery(params.slug ?? ''));
  return null;
};
// Only for a replica the organizations already fetched name: a local organization has no changes to ask for (409).
const prefetchSyncChanges = ({ params }: LoaderFunctionArgs) => {
  const slug = params.slug ?? '';
  const organization = queryClient.getQueryData(organizationsQuery().queryKey)?.find((o) => o.slug === slug);
  if (organization?.kind === 'replica') void queryClient.prefetchQuery(syncChangesQuery(slug));
  return null;
};

/** A version of a product: the version's id is a parameter of its own, and another version starts afresh. */
function SoftwareVersionRoute({ slug, productId }: { slug: string; productId: string }) {
  const { versionId = '' } = useParams();
  return <SoftwareVersionView key={versionId} slug={slug} productId={productId} versionId={versionId} />;
}

/** A collection's list and its items' detail pages, under the collection's path. */
function collectionRoutes(collection: CollectionName, Detail: (props: { slug: string; id: string }) => ReactNode): RouteObject[] {
  const { path } = collectionBasics[collection];
  return [
    { path, loader: prefetchList(collection), element: withParams((slug) => <ListView slug={slug} collection={collection} />) },
    {
      path: `${path}/:id`,
      handle: escapeBack(({ slug = '' }) => paths.list(slug, collection)),
      element: withParams((slug, id) => <Detail slug={slug} id={id} />),
    },
  ];
}

/** The console's routes: every view state is in the URL, so a view can be bookmarked. */
export const routes: RouteObject[] = [
  { path: '/', element: <Home /> },
  {
    path: '/orgs/:slug',
    element: <Layout />,
    // The loaders only start prefetches and return at once; this shows for that instant on the first load.
    hydrateFallbackElement: <p className="state">Loading…</p>,
    children: [
      { index: true, loader: prefetchDashboard, element: withParams((slug) => <DashboardView slug={slug} />) },
      ...collectionRoutes('endpoints', EndpointDetail),
      ...collectionRoutes('remediationTargets', TargetDetail),
      ...collectionRoutes('scopes', ScopeDetail),
      ...collectionRoutes('findings', FindingDetail),
      { path: 'software', loader: prefetchSoftware, element: withParams((slug) => <SoftwareView slug={slug} />) },
      {
        path: 'software/:id',
        loader: prefetchProduct,
        handle: escapeBack(({ slug = '' }) => paths.software(slug)),
        element: withParams((slug, id) => <SoftwareProductView slug={slug} productId={id} />),
      },
      {
        path: 'software/:id/versions/:versionId',
        handle: escapeBack(({ slug = '', id = '' }) => paths.softwareProduct(slug, id)),
        element: withParams((slug, id) => <SoftwareVersionRoute slug={slug} productId={id} />),
      },
      { path: 'remediation-plan', loader: prefetchPlan, element: withParams((slug) => <RemediationPlanView slug={slug} />) },
      { path: 'remediation-performance', loader: prefetchPerformance, element: withParams((slug) => <RemediationPerformanceView slug={slug} />) },
      { path: 'reports', element: withParams((slug) => <ReportsView slug={slug} />) },
      { path: 'coverage-gaps', element: withParams((slug) => <CoverageGapsView slug={slug} />) },
      { path: 'exceptions', element: withParams((slug) => <ExceptionsView slug={slug} />) },
      { path: 'tags', element: withParams((slug) => <TagsView slug={slug} />) },
      { path: 'saved-views', element: withParams((slug) => <SavedViewsView slug={slug} />) },
      { path: 'api-keys', element: withParams((slug) => <ApiKeysView slug={slug} />) },
      { path: 'agent-config', element: withParams((slug) => <AgentConfigView slug={slug} />) },
      { path: 'threat-intelligence', element: withParams((slug) => <IntelView slug={slug} />) },
      { path: 'organizations', element: withParams((slug) => <OrganizationsView slug={slug} />) },
      { path: 'sessions', element: <SessionsView /> },
      { path: syncChangesSection, loader: prefetchSyncChanges, element: withParams((slug) => <SyncChangesView slug={slug} />) },
    ],
  },
  { path: '*', element: <p className="state">No such page. <a href="/">Open the console</a></p> },
];
