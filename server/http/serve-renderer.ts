import fs from 'node:fs';
import path from 'node:path';
import express from 'express';

/** The console's Content-Security-Policy: only its own origin, no inline script, no framing. */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built console from `rendererDir`, with index.html for every other path so that a
 * bookmarked view loads. Where the console is not built, `/` says how to build it.
 */
export function serveRenderer(rendererDir: string): express.Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.set({ 'Content-Security-Policy': consoleContentSecurityPolicy, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
    next();
  });
  const index = path.join(rendererDir, 'index.html');
  router.use(express.static(rendererDir, { index: false, etag: false, cacheControl: false }));
  router.get(/^\/(?!v1\/|app\/|health$).*/, (_req, res) => {
    if (fs.existsSync(index)) res.type('html').send(fs.readFileSync(index));
    else res.status(404).type('text/plain').send('The console is not built: run "npm run build".\n');
  });
  return router;
}
