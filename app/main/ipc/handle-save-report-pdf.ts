import { randomUUID } from 'node:crypto';
import { BrowserWindow, session } from 'electron';
import { z } from 'zod';
import { reportContentSecurityPolicy } from '../../../server/reports/report-content-security-policy.js';
import type { SaveFileResult, SaveReportPdfRequest } from '../../../contracts/desktop/desktop-bridge.js';
import { consoleAppPathSchema, fetchFromConsole, type SaveFileContext, saveThroughDialog, suggestedNameSchema } from './handle-save-file.js';

// A report's HTML and nothing else of the console: no query (another format), no dot segment
// (`%2e%2e`, which the URL parser resolves), no backslash.
function isReportPath(value: string): boolean {
  return /^\/app\/orgs\/[^/?#\\]+\/reports\/[^/?#\\]+$/.test(value) && new URL(value, 'http://console.invalid').pathname === value;
}

/** The argument of `desktop:save-report-pdf`: a report's HTML path (no other format, no query) and a `.pdf` name. */
export const saveReportPdfRequestSchema = z.strictObject({
  suggestedName: suggestedNameSchema.refine((name) => name.toLowerCase().endsWith('.pdf'), 'must end in .pdf'),
  source: z.strictObject({
    path: consoleAppPathSchema.refine(isReportPath, 'must be the path of a report, /app/orgs/ORG/reports/ID'),
  }),
}) satisfies z.ZodType<SaveReportPdfRequest>;

/** The scheme the hidden print window loads a report from: served from memory by its own session, nowhere else. */
const reportPrintScheme = 'console-report';

/** What the print stylesheet of a report asks of `printToPDF`: its own @page size, margins, running header and page numbers. */
export const reportPdfOptions: Electron.PrintToPDFOptions = {
  pageSize: 'A4',
  printBackground: true,
  preferCSSPageSize: true,
  // The report draws its header and page numbers in @page margin boxes; Chromium's own header
  // and footer (the URL, the date) would print over them.
  displayHeaderFooter: false,
};

/** Prints HTML to PDF bytes, offline. */
export type ReportPrinter = (html: Buffer) => Promise<Buffer>;

/**
 * The printer of reports: a hidden window with the app's hardened preferences, in an in-memory
 * session of its own whose every request is cancelled but that of the report being printed, which
 * it serves from memory under the report's Content-Security-Policy. So printing makes no network
 * request, whatever the HTML holds.
 */
export function createReportPrinter(): ReportPrinter {
  const printSession = session.fromPartition('report-pdf');
  const documents = new Map<string, Buffer>();
  printSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  printSession.setPermissionCheckHandler(() => false);
  printSession.setDevicePermissionHandler(() => false);
  printSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !documents.has(details.url) }));
  printSession.protocol.handle(reportPrintScheme, (request) => {
    const html = documents.get(request.url);
    if (!html) return new Response(null, { status: 404 });
    return new Response(new Uint8Array(html), {
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': reportContentSecurityPolicy },
    });
  });

  return async (html) => {
    const documentUrl = `${reportPrintScheme}://print/${randomUUID()}`;
    documents.set(documentUrl, html);
    // Every item of Electron's security checklist a window option covers, stated as in
    // app-window.ts and not spread from a shared constant: `npm run lint:electron` reads the
    // literal (a spread fails its context-isolation, sandbox and Auxclick checks). No preload and
    // no script at all: the report has none.
    const window = new BrowserWindow({
      show: false,
      width: 794,
      height: 1123,
      webPreferences: {
        session: printSession,
        javascript: false,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        safeDialogs: true,
        disableBlinkFeatures: 'Auxclick',
      },
    });
    try {
      await window.loadURL(documentUrl);
      return Buffer.from(await window.webContents.printToPDF(reportPdfOptions));
    } finally {
      documents.delete(documentUrl);
      if (!window.isDestroyed()) window.close();
    }
  };
}

/**
 * Saves a report as PDF: fetches its HTML from the local server with the console token (so an
 * error is told before the user picks a place), prints it in the hidden window, then asks where
 * with the native save dialog and writes exactly the PDF's bytes there.
 */
export async function saveReportPdf(request: SaveReportPdfRequest, printer: ReportPrinter, context: SaveFileContext): Promise<SaveFileResult> {
  let pdf: Buffer;
  try {
    const html = await fetchFromConsole(request.source.path, context);
    pdf = await printer(html).catch((error: unknown) => {
      throw new Error(`Could not print the report to PDF: ${(error as Error).message}`, { cause: error });
    });
  } catch (error) {
    return { saved: false, reason: 'failed', message: (error as Error).message };
  }
  return saveThroughDialog(pdf, { suggestedName: request.suggestedName, filters: [{ name: 'PDF', extensions: ['pdf'] }] }, context);
}
