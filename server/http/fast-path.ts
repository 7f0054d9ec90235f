import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * A request listener that answers some requests before express sees them, byte for byte as
 * the app would; it returns false, having written nothing, for every other request.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const fastPaths = new WeakMap<Express, FastPath>();

/** Gives an app a fast path, taken by {@link requestListener}. */
export function attachFastPath(app: Express, fastPath: FastPath): void {
  fastPaths.set(app, fastPath);
}

/** The listener that serves an app: its fast path first when it has one, else express. */
export function requestListener(app: Express): RequestListener {
  const fastPath = fastPaths.get(app);
  if (!fastPath) return app;
  return (req, res) => {
    if (!fastPath(req, res)) app(req, res);
  };
}
