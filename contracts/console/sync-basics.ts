/**
 * The facts of replica syncs that the server and the console share as values: the totals a sync
 * compares with its remote's and the bounds of the reconcile interval. Free of zod, for the
 * renderer's bundle.
 */

/**
 * The totals a sync compares between the remote and the replica after an incremental sync: each
 * collection's, and a few filtered ones that an equal overall total can hide (a remote re-seeded
 * with as many findings, differently open, and older timestamps that `updatedSince` never
 * returns). A difference starts a reconcile. Each is one list request of one item (`limit=1`) on
 * the remote, with the filters of the v1 query string `filter`.
 */
export const syncCountChecks = [
  { id: 'endpoints', collection: 'endpoints', filter: '', label: 'endpoints' },
  { id: 'endpointsWithAgent', collection: 'endpoints', filter: 'hasAgent=true', label: 'endpoints with an agent' },
  { id: 'remediationTargets', collection: 'remediationTargets', filter: '', label: 'remediation targets' },
  { id: 'activeRemediationTargets', collection: 'remediationTargets', filter: 'status=active', label: 'active remediation targets' },
  { id: 'scopes', collection: 'scopes', filter: '', label: 'scopes' },
  { id: 'findings', collection: 'findings', filter: '', label: 'findings' },
  { id: 'openFindings', collection: 'findings', filter: 'status=open', label: 'open findings' },
  { id: 'kevFindings', collection: 'findings', filter: 'isKev=true', label: 'KEV findings' },
  { id: 'criticalFindings', collection: 'findings', filter: 'severity=critical', label: 'critical findings' },
] as const;
/** One of {@link syncCountChecks}, by id. */
export type SyncCountCheckId = (typeof syncCountChecks)[number]['id'];

/** The default reconcile interval of a replica, in hours: daily. */
export const defaultReconcileIntervalHours = 24;
/** The longest reconcile interval a replica may be given, in hours: 30 days. */
export const maxReconcileIntervalHours = 720;
