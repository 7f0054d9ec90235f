/**
 * The preload of the console window: exposes `window.desktop` (shared/desktop-bridge.ts) and
 * nothing else.
 *
 * It runs sandboxed, where `require` knows only `electron`, so it must be one self-contained
 * CommonJS file: this is a `.cts` file that tsc (app/tsconfig.build.json) compiles alone to
 * dist/app/preload/preload.cjs, and it imports only types, which compile away. No bundler.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS: verbatimModuleSyntax allows no ESM import in a .cts file
import electron = require('electron');
import type { DesktopBridge, SaveFileRequest, SaveReportPdfRequest } from '../../contracts/desktop/desktop-bridge.js';
import type { InvokeChannel, InvokeChannels, SyncChannel, SyncChannels } from '../../contracts/desktop/ipc-channels.js';

const { contextBridge, ipcRenderer } = electron;

function invoke<C extends InvokeChannel>(channel: C, request: InvokeChannels[C]['request']): Promise<InvokeChannels[C]['response']> {
  return ipcRenderer.invoke(channel, request);
}

function sendSync<C extends SyncChannel>(channel: C): SyncChannels[C]['response'] {
  return ipcRenderer.sendSync(channel);
}

// Synchronous so the console can read the token the moment it starts; null when the main
// process does not recognise this page as the console, which then gets no bridge at all.
const bootstrap = sendSync('desktop:bootstrap');
if (bootstrap) {
  const bridge: DesktopBridge = {
    consoleToken: bootstrap.consoleToken,
    apiBaseUrl: bootstrap.apiBaseUrl,
    appVersion: bootstrap.appVersion,
    saveFile: (request: SaveFileRequest) => invoke('desktop:save-file', request),
    saveReportPdf: (request: SaveReportPdfRequest) => invoke('desktop:save-report-pdf', request),
    revealInFolder: (path: string) => invoke('desktop:reveal-in-folder', path),
  };
  contextBridge.exposeInMainWorld('desktop', bridge);
}
