import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', 'dist', 'renderer'),
    emptyOutDir: true,
    // The console's CSP allows no inline script or style: keep every asset a file.
    assetsInlineLimit: 0,
    // The console is read from loopback or from the app's own files, not downloaded: its entry
    // chunk (about 590 kB, 180 kB gzipped; React DOM and React Router are half of it) is one on
    // purpose (docs/decisions/the-console/the-bundle-is-not-split-further.md). Vite warns past
    // 500 kB; past 700 kB the record is to be looked at again.
    chunkSizeWarningLimit: 700,
  },
});
