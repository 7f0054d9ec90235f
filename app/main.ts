import path from 'node:path';
import { app } from 'electron';
import { defaultDataDirectory } from '../server/store/engine/data-directory.js';
import { startDesktopApp } from './main/start-desktop-app.js';

startDesktopApp({
  dataDir: defaultDataDirectory(),
  preload: path.join(import.meta.dirname, 'preload', 'preload.cjs'),
}).catch((error: unknown) => {
  console.error(error);
  app.exit(1);
});
