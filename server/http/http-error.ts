import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The Content-Type of every JSON answer, as express writes it for a string body. */
export const jsonContentType = 'application/json; charset=utf-8';

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

/**
 * Sends the error body of DESIGN section 3: `{"error": "<message>"}`, after the headers already
 * set on the response and `headers`. Used by the v1 API and the express app alike.
 */
export function sendError(res: ServerResponse, status: number, message: string, headers: OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: message });
  res.writeHead(status, { ...headers, 'Content-Type': jsonContentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
