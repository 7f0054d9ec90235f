import { type BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import type { DesktopBootstrap, InvokeChannel, InvokeChannels } from '../../../contracts/desktop/ipc-channels.js';
import { revealInFolder, revealInFolderRequestSchema } from './handle-reveal-in-folder.js';
import { saveFile, saveFileRequestSchema } from './handle-save-file.js';
import { createReportPrinter, saveReportPdf, saveReportPdfRequestSchema } from './handle-save-report-pdf.js';
import { isConsoleSender } from './is-console-sender.js';

/** What the IPC handlers need from the running app. */
export interface IpcContext {
  consoleWindow: () => BrowserWindow | undefined;
  consoleOrigin: string;
  serverUrl: string;
  consoleToken: string;
  appVersion: string;
  /** The folder the save dialog opens in. */
  defaultSaveFolder: string;
}

/**
 * Registers the handlers of every channel of `shared/ipc-channels.ts`. Each refuses a sender
 * that is not the console window's main frame, then validates its argument with zod before use.
 */
export function registerIpcHandlers(context: IpcContext): void {
  const fromConsole = (event: Electron.IpcMainEvent | IpcMainInvokeEvent) => isConsoleSender(event, context.consoleWindow(), context.consoleOrigin);
  const savedPaths = new Set<string>();
  const printReport = createReportPrinter();
  const saving = () => ({
    serverUrl: context.serverUrl,
    consoleToken: context.consoleToken,
    window: context.consoleWindow(),
    defaultFolder: context.defaultSaveFolder,
    savedPaths,
  });

  const bootstrap: DesktopBootstrap = { consoleToken: context.consoleToken, apiBaseUrl: context.serverUrl, appVersion: context.appVersion };
  ipcMain.on('desktop:bootstrap', (event) => {
    event.returnValue = fromConsole(event) ? bootstrap : null;
  });

  handle('desktop:save-file', saveFileRequestSchema, fromConsole, (request) => saveFile(request, saving()));
  handle('desktop:save-report-pdf', saveReportPdfRequestSchema, fromConsole, (request) => saveReportPdf(request, printReport, saving()));
  handle('desktop:reveal-in-folder', revealInFolderRequestSchema, fromConsole, async (filePath) => revealInFolder(filePath, savedPaths));
}

function handle<C extends InvokeChannel>(
  channel: C,
  schema: z.ZodType<InvokeChannels[C]['request']>,
  fromConsole: (event: IpcMainInvokeEvent) => boolean,
  handler: (request: InvokeChannels[C]['request']) => Promise<InvokeChannels[C]['response']>,
): void {
  ipcMain.handle(channel, (event, argument: unknown) => {
    if (!fromConsole(event)) throw new Error(`${channel} refused: the sender is not the console window`);
    const parsed = schema.safeParse(argument);
    if (!parsed.success) throw new Error(`${channel} refused: invalid argument: ${z.prettifyError(parsed.error)}`);
    return handler(parsed.data);
  });
}
