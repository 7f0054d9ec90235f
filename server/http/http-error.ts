import type { Response } from 'express';

/** An error answered to the client with its status and message; nothing else leaves the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Sends the error body of DESIGN section 3: `{"error": "<message>"}`. */
export function sendError(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).set(headers).type('application/json').send(JSON.stringify({ error: message }));
}
