import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDesktopSettings, updateDesktopSettings } from './desktop-settings.js';

describe('desktop settings', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-settings-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const file = () => path.join(dataDir, 'desktop-settings.json');

  it('reads as defaults when missing or damaged', () => {
    expect(readDesktopSettings(dataDir)).toEqual({});
    fs.writeFileSync(file(), '{"window": ');
    expect(readDesktopSettings(dataDir)).toEqual({});
  });

  it('keeps the valid fields of a partly damaged file', () => {
    fs.writeFileSync(file(), JSON.stringify({ window: { x: 'left' }, secretSealing: 'key-file', port: 7400, notifyOfNewFindings: 'no' }));
    expect(readDesktopSettings(dataDir)).toEqual({ secretSealing: 'key-file', port: 7400 });
    fs.writeFileSync(file(), JSON.stringify({ notifyOfNewFindings: false }));
    expect(readDesktopSettings(dataDir)).toEqual({ notifyOfNewFindings: false });
  });

  it.each([0, 65536, 7300.5, '7400', -1])('reads a port of %j as no port', (port) => {
    fs.writeFileSync(file(), JSON.stringify({ port }));
    expect(readDesktopSettings(dataDir)).toEqual({});
  });

  it('updates one setting keeping the others, leaving no temporary file', () => {
    updateDesktopSettings(dataDir, { secretSealing: 'basic-text' });
    updateDesktopSettings(dataDir, { window: { x: 1, y: 2, width: 3, height: 4, maximized: false } });
    expect(readDesktopSettings(dataDir)).toEqual({ secretSealing: 'basic-text', window: { x: 1, y: 2, width: 3, height: 4, maximized: false } });
    expect(fs.readdirSync(dataDir)).toEqual(['desktop-settings.json']);
  });
});
