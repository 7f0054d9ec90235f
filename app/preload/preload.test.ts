import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { runSandboxedPreload } from '../test/run-sandboxed-preload.js';

const source = fs.readFileSync(path.join(import.meta.dirname, 'preload.cts'), 'utf8');

/**
 * Runs the preload as Electron's sandbox does: compiled to CommonJS by tsc as the build does,
 * with a `require` that knows only `electron`.
 */
function runPreload(bootstrap: unknown) {
  const exposed = new Map<string, unknown>();
  const ipcRenderer = { sendSync: vi.fn(() => bootstrap), invoke: vi.fn(async () => ({ saved: false, reason: 'cancelled' })) };
  const electron = { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) }, ipcRenderer };
  const compiled = ts.transpileModule(source, {
    fileName: 'preload.cts',
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  }).outputText;
  const required = runSandboxedPreload(compiled, electron);
  return { exposed, ipcRenderer, required };
}

describe('the preload', () => {
  const bootstrap = { consoleToken: 't', apiBaseUrl: 'http://127.0.0.1:7300', appVersion: '1.0.0' };

  it('requires nothing but electron, so it runs sandboxed', () => {
    expect(runPreload(bootstrap).required).toEqual(['electron']);
  });

  it('exposes window.desktop: the bootstrap values, saveFile, saveReportPdf and revealInFolder, nothing else', async () => {
    const { exposed, ipcRenderer } = runPreload(bootstrap);
    expect([...exposed.keys()]).toEqual(['desktop']);
    const desktop = exposed.get('desktop') as Record<string, unknown>;
    expect(Object.keys(desktop).sort()).toEqual(['apiBaseUrl', 'appVersion', 'consoleToken', 'revealInFolder', 'saveFile', 'saveReportPdf']);
    expect(desktop).toMatchObject(bootstrap);
    expect(ipcRenderer.sendSync).toHaveBeenCalledWith('desktop:bootstrap');

    const request = { suggestedName: 'a.zip', source: { path: '/app/x' } };
    await (desktop.saveFile as (r: unknown) => Promise<unknown>)(request);
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('desktop:save-file', request);
    const pdfRequest = { suggestedName: 'r.pdf', source: { path: '/app/orgs/demo/reports/1' } };
    await (desktop.saveReportPdf as (r: unknown) => Promise<unknown>)(pdfRequest);
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('desktop:save-report-pdf', pdfRequest);
    await (desktop.revealInFolder as (p: string) => Promise<unknown>)('/tmp/a.zip');
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith('desktop:reveal-in-folder', '/tmp/a.zip');
  });

  it('exposes nothing when the main process does not recognise the page', () => {
    expect(runPreload(null).exposed.size).toBe(0);
  });
});
