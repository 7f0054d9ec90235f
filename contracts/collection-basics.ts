/**
 * The plain facts of each collection, usable where zod is not loaded (as `enums.ts` is): the
 * path it is served under and what the console calls it. The registry (`collections.ts`)
 * spreads each into its entry; the console's renderer reads them here, because importing the
 * registry would load zod into its bundle, whose first object schema probes `new Function` and
 * so raises a violation of the console's Content-Security-Policy (no 'unsafe-eval').
 */
export const collectionBasics = {
  endpoints: {
    path: 'endpoints',
    labels: { title: 'Endpoints', noun: 'endpoint', resource: 'Endpoint' },
  },
  remediationTargets: {
    path: 'remediation-targets',
    labels: { title: 'Remediation targets', noun: 'remediation target', resource: 'Remediation target' },
  },
  scopes: {
    path: 'scopes',
    labels: { title: 'Scopes', noun: 'scope', resource: 'Scope' },
  },
  findings: {
    path: 'vulnerability-findings',
    labels: { title: 'Vulnerability findings', noun: 'finding', resource: 'Vulnerability finding' },
    /**
     * The view the console's findings list opens on when its URL names no status and no order
     * (the parameters of the list's query, and what the view says of it); `serve` computes its
     * order ahead, with the dashboard.
     */
    defaultView: { query: { status: 'open', sort: '-risk' }, summary: 'Open findings, riskiest first (KEV, then CVSS)' },
  },
} as const;
