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
  },
});
