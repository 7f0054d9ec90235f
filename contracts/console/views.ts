import { collectionBasics } from '../collection-basics.js';

/** A view of the console: where an organization's URL routes it, and what it is called. */
export interface ConsoleView {
  /** The section of an organization's URL (`/orgs/<slug>/<section>`); the dashboard's is empty. */
  section: string;
  /** Its name in the sidebar, in sentence case. */
  label: string;
}

/**
 * The console's views in the order of its sidebar and of the desktop app's View menu, whose
 * shortcuts follow this order (Ctrl/Cmd+1 to 8 the first eight, Ctrl/Cmd+9 the last, as a
 * browser's tabs; see app/main/menu/build-app-menu.ts). Free of zod, for the renderer's bundle.
 */
export const consoleViews: readonly ConsoleView[] = [
  { section: '', label: 'Dashboard' },
  ...Object.values(collectionBasics).map((collection) => ({ section: collection.path, label: collection.labels.title })),
  { section: 'software', label: 'Software' },
  { section: 'remediation-plan', label: 'Remediation plan' },
  { section: 'coverage-gaps', label: 'Coverage gaps' },
  { section: 'exceptions', label: 'Exceptions' },
  // After the views with a shortcut of their own, whose shortcuts stay as they were.
  { section: 'remediation-performance', label: 'Remediation performance' },
  { section: 'reports', label: 'Reports' },
  { section: 'tags', label: 'Tags and rules' },
  { section: 'saved-views', label: 'Saved views' },
  { section: 'api-keys', label: 'API keys' },
  { section: 'agent-config', label: 'Agent configuration' },
  { section: 'threat-intelligence', label: 'Threat intelligence' },
  { section: 'organizations', label: 'Organizations' },
];

/**
 * The section of a replica's Changes view (what each sync changed). Not one of {@link
 * consoleViews}: a local organization never syncs, so the sidebar shows it for replicas only,
 * and the View menu, whose items are the same for every organization, leaves it out.
 */
export const syncChangesSection = 'changes';

/**
 * The console's path of a replica's Changes view; with `syncChangesId`, that sync's changes
 * selected (where the desktop notification and the console's banner lead).
 */
export function syncChangesPath(slug: string, syncChangesId?: number): string {
  const path = `/orgs/${encodeURIComponent(slug)}/${syncChangesSection}`;
  return syncChangesId === undefined ? path : `${path}?sync=${syncChangesId}`;
}
