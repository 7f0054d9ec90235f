import { Menu, type MenuItemConstructorOptions } from 'electron';
import { productName } from '../../../server/store/data-directory.js';
import { openExternalLink } from '../open-external-link.js';
import { type SyncMenuContext, syncMenuTemplate } from './sync-menu.js';

/**
 * The console's views, by the section of an organization's URL the renderer routes them under
 * (`/orgs/<slug>/<section>`, the dashboard at `/orgs/<slug>`), with the shortcut that opens each.
 */
export const consoleViews = [
  { id: 'view-dashboard', label: 'Dashboard', section: '', accelerator: 'CmdOrCtrl+1' },
  { id: 'view-endpoints', label: 'Endpoints', section: 'endpoints', accelerator: 'CmdOrCtrl+2' },
  { id: 'view-remediation-targets', label: 'Remediation Targets', section: 'remediation-targets', accelerator: 'CmdOrCtrl+3' },
  { id: 'view-scopes', label: 'Scopes', section: 'scopes', accelerator: 'CmdOrCtrl+4' },
  { id: 'view-vulnerability-findings', label: 'Vulnerability Findings', section: 'vulnerability-findings', accelerator: 'CmdOrCtrl+5' },
  { id: 'view-coverage-gaps', label: 'Coverage Gaps', section: 'coverage-gaps', accelerator: 'CmdOrCtrl+6' },
  { id: 'view-api-keys', label: 'API Keys', section: 'api-keys', accelerator: 'CmdOrCtrl+7' },
  { id: 'view-agent-config', label: 'Agent Configuration', section: 'agent-config', accelerator: 'CmdOrCtrl+8' },
  { id: 'view-organizations', label: 'Organizations', section: 'organizations', accelerator: 'CmdOrCtrl+9' },
] as const;

/**
 * The URL path of a view's section in the organization the window shows now; the console's home
 * (which opens the demo organization, or the first) when it shows none.
 */
export function viewPath(currentUrl: string, section: string): string {
  let pathname = '';
  try {
    pathname = new URL(currentUrl).pathname;
  } catch {
    // Not loaded yet: no organization to stay in.
  }
  const slug = /^\/orgs\/([^/]+)/.exec(pathname)?.[1];
  if (!slug) return '/';
  return section ? `/orgs/${slug}/${section}` : `/orgs/${slug}`;
}

/** What the menu acts on. */
export interface AppMenuContext {
  platform: NodeJS.Platform;
  consoleOrigin: string;
  /** Developer tools only in development builds. */
  isPackaged: boolean;
  /** Shows a view of the console in the window, by its section (see {@link consoleViews}). */
  showView: (section: string) => void;
  /** The replicas and their syncs, for the Sync menu. */
  sync: Omit<SyncMenuContext, 'showOrganizations'>;
}

/** The application menu's template: app (macOS), File, Edit, View, Sync, Window, Help. */
export function appMenuTemplate(context: AppMenuContext): MenuItemConstructorOptions[] {
  const mac = context.platform === 'darwin';
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: productName,
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];
  return [
    ...appMenu,
    { label: '&File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        ...consoleViews.map(
          (view): MenuItemConstructorOptions => ({
            id: view.id,
            label: view.label,
            accelerator: view.accelerator,
            click: () => context.showView(view.section),
          }),
        ),
        { type: 'separator' },
        { role: 'reload' },
        ...(context.isPackaged ? [] : [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    syncMenuTemplate({ ...context.sync, showOrganizations: () => context.showView('organizations') }),
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ id: 'help-api-documentation', label: 'API Documentation (OpenAPI)', click: () => openExternalLink(`${context.consoleOrigin}/v1/openapi.json`) }],
    },
  ];
}

/** Builds the application menu. */
export function buildAppMenu(context: AppMenuContext): Menu {
  return Menu.buildFromTemplate(appMenuTemplate(context));
}
