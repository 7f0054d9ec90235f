import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ByteServer, startByteServer } from '../../test/byte-server.js';
import { dialog, resetFakeElectron } from '../../test/fake-electron.js';
import { saveFile, saveFileRequestSchema } from './handle-save-file.js';

vi.mock('electron', () => import('../../test/fake-electron.js'));

describe('saveFile', () => {
  let folder: string;
  let byteServer: ByteServer;
  beforeAll(async () => {
    byteServer = await startByteServer();
  });
  afterAll(() => byteServer.close());
  beforeEach(() => {
    resetFakeElectron();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'save-file-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  const context = (serverUrl: string, consoleToken = 'token-1') => ({
    serverUrl,
    consoleToken,
    window: undefined,
    defaultFolder: folder,
    savedPaths: new Set<string>(),
  });

  it('writes exactly the bytes the server answered, fetched with the console token', async () => {
    const target = path.join(folder, 'agent.zip');
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const saving = context(byteServer.url);
    const result = await saveFile(
      { suggestedName: 'agent.zip', filters: [{ name: 'ZIP archive', extensions: ['zip'] }], source: { path: '/app/file' } },
      saving,
    );
    expect(result).toEqual({ saved: true, path: target });
    expect(fs.readFileSync(target).equals(byteServer.bytes)).toBe(true);
    expect(byteServer.tokens.at(-1)).toBe('token-1');
    expect(saving.savedPaths.has(target)).toBe(true);
    expect(dialog.showSaveDialog).toHaveBeenCalledWith({
      defaultPath: path.join(folder, 'agent.zip'),
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
  });

  it('writes nothing when the dialog is cancelled', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    const result = await saveFile({ suggestedName: 'agent.zip', source: { path: '/app/file' } }, context(byteServer.url));
    expect(result).toEqual({ saved: false, reason: 'cancelled' });
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it("tells the server's error before asking where to save", async () => {
    const result = await saveFile({ suggestedName: 'agent.zip', source: { path: '/app/missing' } }, context(byteServer.url));
    expect(result).toEqual({ saved: false, reason: 'failed', message: 'The organization has no enrollment secret' });
    expect(dialog.showSaveDialog).not.toHaveBeenCalled();
  });

  it('says so when the server cannot be reached', async () => {
    const result = await saveFile({ suggestedName: 'a.zip', source: { path: '/app/file' } }, context('http://127.0.0.1:1'));
    expect(result).toMatchObject({ saved: false, reason: 'failed', message: expect.stringContaining("Could not reach the console's server") });
  });
});

describe('saveFileRequestSchema', () => {
  const valid = { suggestedName: 'agent.mobileconfig', filters: [{ name: 'Profile', extensions: ['mobileconfig'] }], source: { path: '/app/orgs/demo/agent-config?platform=macos' } };

  it('accepts a well-formed request', () => {
    expect(saveFileRequestSchema.safeParse(valid).success).toBe(true);
  });

  it.each([
    ['a path as the suggested name', { ...valid, suggestedName: '../../.bashrc' }],
    ['a Windows path as the suggested name', { ...valid, suggestedName: 'C:\\Windows\\evil.reg' }],
    ['an empty suggested name', { ...valid, suggestedName: '' }],
    ['a dotted extension', { ...valid, filters: [{ name: 'x', extensions: ['.zip'] }] }],
    ['a source outside /app/', { ...valid, source: { path: '/v1/endpoints' } }],
    ['a source escaping /app/', { ...valid, source: { path: '/app/../v1/endpoints' } }],
    ['an encoded escape', { ...valid, source: { path: '/app/%2e%2e/v1/endpoints' } }],
    ['a backslash escape', { ...valid, source: { path: '/app/..\\v1/endpoints' } }],
    ['an absolute URL', { ...valid, source: { path: 'http://evil.example/app/x' } }],
    ['a host-relative URL', { ...valid, source: { path: '//evil.example/app/x' } }],
    ['an unknown field', { ...valid, overwrite: true }],
    ['a missing source', { suggestedName: 'a.zip' }],
    ['a string', 'agent.zip'],
  ])('refuses %s', (_name, request) => {
    expect(saveFileRequestSchema.safeParse(request).success).toBe(false);
  });
});
