import { Menu, type MenuItemConstructorOptions } from 'electron';
import { consoleViews, syncChangesPath } from '../../../contracts/console/views.js';
import { productName } from '../../../server/store/engine/data-directory.js';
import { openExternalLink } from '../open-external-link.js';
import { type SyncMenuContext, syncMenuTemplate } from './sync-menu.js';

/**
 * The View menu's shortcut of the view at `index` of `count`: as a browser's tabs, Ctrl/Cmd+1 to
 * 8 the first eight and Ctrl/Cmd+9 the last, so the last view (Organizations) keeps its shortcut
 * however many views come before it; the views between have none, as there is no Ctrl/Cmd+10.
 */
export function viewAccelerator(index: number, count: number): string | undefined {
  if (index === count - 1) return 'CmdOrCtrl+9';
  return index < 8 ? `CmdOrCtrl+${index + 1}` : undefined;
}

/**
 * The View menu's items of the console's views, in the sidebar's order (`consoleViews`, declared
 * once in the contracts): a menu names them in title case, as the other menus do.
 */
export const viewMenuItems = consoleViews.map((view, index) => ({
  /** Stable for tests and the e2e scripts that click it: `view-<section>`, `view-dashboard`. */
  id: `view-${view.section || 'dashboard'}`,
  label: view.label.replace(/\b\w/g, (letter) => letter.toUpperCase()),
  section: view.section,
  accelerator: viewAccelerator(index, consoleViews.length),
}));

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
  /** Shows a view of the console in the window, by its section (see {@link viewMenuItems}). */
  showView: (section: string) => void;
  /** The replicas and their syncs, for the Sync menu. */
  sync: Omit<SyncMenuContext, 'showOrganizations' | 'showChanges'>;
  /** Shows a path of the console in the window (a replica's changes). */
  showPath: (path: string) => void;
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
        ...viewMenuItems.map(
          ({ section, ...item }): MenuItemConstructorOptions => ({ ...item, click: () => context.showView(section) }),
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
    syncMenuTemplate({
      ...context.sync,
      showOrganizations: () => context.showView('organizations'),
      showChanges: (slug) => context.showPath(syncChangesPath(slug)),
    }),
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
