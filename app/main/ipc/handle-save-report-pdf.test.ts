import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ByteServer, reportPath, startByteServer } from '../../test/byte-server.js';
import { app, BrowserWindow, dialog, type FakeWebContents, resetFakeElectron, session } from '../../test/fake-electron.js';
import { createReportPrinter, reportPdfOptions, saveReportPdf, saveReportPdfRequestSchema } from './handle-save-report-pdf.js';

vi.mock('electron', () => import('../../test/fake-electron.js'));

/** What the print window showed when `printToPDF` was called. */
interface PrintedPage {
  url: string;
  html: string;
  contentSecurityPolicy: string | null;
  /** Whether the window's session let each of these requests go. */
  allowed: Record<string, boolean>;
}

/** Has the next web contents made answer printToPDF with `print` (the fake emits web-contents-created as it is made). */
function whenPrinting(print: (contents: FakeWebContents) => Promise<Buffer>): void {
  app.once('web-contents-created', (_event: unknown, contents: FakeWebContents) => contents.printToPDF.mockImplementationOnce(() => print(contents)));
}

describe('saveReportPdf', () => {
  let folder: string;
  let byteServer: ByteServer;
  let pdf: Buffer;
  let printed: PrintedPage[];
  beforeAll(async () => {
    byteServer = await startByteServer();
  });
  afterAll(() => byteServer.close());
  beforeEach(() => {
    resetFakeElectron();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'save-report-pdf-'));
    pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(32 * 1024)]);
    printed = [];
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  const context = () => ({ serverUrl: byteServer.url, consoleToken: 'token-1', window: undefined, defaultFolder: folder, savedPaths: new Set<string>() });

  /** A printer whose window's printToPDF records the page as it stands, then answers `pdf`. */
  function printerRecordingPages() {
    const printer = createReportPrinter();
    const printSession = session.partitions.get('report-pdf')!;
    whenPrinting(async (contents) => {
      const url = contents.getURL();
      const served = await printSession.serve(url);
      const others = ['https://cdn.example/r.css', 'http://tracker.example/p.gif', `${byteServer.url}/app/file`, 'data:text/plain,x', `${url}-other`];
      printed.push({
        url,
        html: await served.text(),
        contentSecurityPolicy: served.headers.get('content-security-policy'),
        allowed: Object.fromEntries([url, ...others].map((other) => [other, printSession.allowsRequest(other)])),
      });
      return pdf;
    });
    return { printer };
  }

  it("prints the report's HTML in a hidden, locked-down window that can reach nothing, and saves exactly the PDF's bytes", async () => {
    const target = path.join(folder, 'report.pdf');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const { printer } = printerRecordingPages();
    const saving = context();

    const result = await saveReportPdf({ suggestedName: 'report-1.pdf', source: { path: reportPath } }, printer, saving);

    expect(result).toEqual({ saved: true, path: target });
    expect(fs.readFileSync(target).equals(pdf)).toBe(true);
    expect(saving.savedPaths.has(target)).toBe(true);
    expect(byteServer.tokens.at(-1)).toBe('token-1');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith({
      defaultPath: path.join(folder, 'report-1.pdf'),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });

    const [window] = BrowserWindow.instances;
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(window!.options).toMatchObject({
      show: false,
      webPreferences: { session: session.partitions.get('report-pdf'), javascript: false, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
    });
    expect(window!.options.webPreferences).not.toHaveProperty('preload');
    expect(window!.webContents.printToPDF).toHaveBeenCalledWith(reportPdfOptions);
    expect(reportPdfOptions).toMatchObject({ pageSize: 'A4', printBackground: true, preferCSSPageSize: true, displayHeaderFooter: false });
    expect(window!.isDestroyed()).toBe(true);

    // The page printed is the report's HTML, served from memory under the report's policy; every
    // other request of that window, the report's own included, is cancelled.
    const [page] = printed;
    expect(page!.url).toMatch(/^console-report:\/\/print\/[0-9a-f-]{36}$/);
    expect(page!.html).toBe(byteServer.reportHtml.toString());
    expect(page!.contentSecurityPolicy).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(page!.allowed).toEqual({
      [page!.url]: true,
      'https://cdn.example/r.css': false,
      'http://tracker.example/p.gif': false,
      [`${byteServer.url}/app/file`]: false,
      'data:text/plain,x': false,
      [`${page!.url}-other`]: false,
    });
    // Once printed, the document is gone from memory.
    expect(session.partitions.get('report-pdf')!.allowsRequest(page!.url)).toBe(false);
    expect((await session.partitions.get('report-pdf')!.serve(page!.url)).status).toBe(404);
  });

  it('denies every permission in the print session', () => {
    createReportPrinter();
    const printSession = session.partitions.get('report-pdf')!;
    const granted: boolean[] = [];
    printSession.permissionRequestHandler!(undefined, 'media', (grant) => granted.push(grant));
    expect(granted).toEqual([false]);
    expect(printSession.permissionCheckHandler!()).toBe(false);
    expect(printSession.devicePermissionHandler!()).toBe(false);
  });

  it('writes nothing when the dialog is cancelled, and closes the print window all the same', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    const { printer } = printerRecordingPages();
    const result = await saveReportPdf({ suggestedName: 'report-1.pdf', source: { path: reportPath } }, printer, context());
    expect(result).toEqual({ saved: false, reason: 'cancelled' });
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(BrowserWindow.instances[0]!.isDestroyed()).toBe(true);
  });

  it("tells the server's error before printing or asking where", async () => {
    const printer = vi.fn(createReportPrinter());
    const result = await saveReportPdf({ suggestedName: 'report-1.pdf', source: { path: '/app/orgs/demo/reports/missing' } }, printer, context());
    expect(result).toEqual({ saved: false, reason: 'failed', message: 'The organization has no enrollment secret' });
    expect(printer).not.toHaveBeenCalled();
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
  });

  it('answers a failed print as a result, asks nothing, and closes the window', async () => {
    const printer = createReportPrinter();
    whenPrinting(() => Promise.reject(new Error('Failed to generate PDF')));
    expect(await saveReportPdf({ suggestedName: 'report-1.pdf', source: { path: reportPath } }, printer, context())).toEqual({ saved: false, reason: 'failed', message: 'Could not print the report to PDF: Failed to generate PDF' });
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
    expect(BrowserWindow.instances[0]!.isDestroyed()).toBe(true);
  });
});

describe('saveReportPdfRequestSchema', () => {
  const valid = { suggestedName: 'report-1.pdf', source: { path: reportPath } };

  it('accepts a report and a PDF name', () => {
    expect(saveReportPdfRequestSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ['a path as the suggested name', { ...valid, suggestedName: '../../report.pdf' }],
    ['a name not ending in .pdf', { ...valid, suggestedName: 'report.html' }],
    ['another /app/ path', { ...valid, source: { path: '/app/orgs/demo/agent-config' } }],
    ['a report in another format', { ...valid, source: { path: `${reportPath}?format=p7s` } }],
    ['a path under the report', { ...valid, source: { path: `${reportPath}/x` } }],
    ['a source escaping /app/', { ...valid, source: { path: '/app/orgs/../../v1/reports/x' } }],
    ['an encoded escape', { ...valid, source: { path: '/app/orgs/%2e%2e/reports/x' } }],
    ['a backslash escape', { ...valid, source: { path: '/app/orgs/demo\\..\\..\\reports/x' } }],
    ['an absolute URL', { ...valid, source: { path: 'http://evil.example/app/orgs/demo/reports/x' } }],
    ['an unknown field', { ...valid, landscape: true }],
    ['a string', reportPath],
  ])('refuses %s', (_name, request) => {
    expect(saveReportPdfRequestSchema.safeParse(request).success).toBe(false);
  });
});
