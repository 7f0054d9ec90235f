/** A size in bytes as people read it: "32 MiB", "64 KiB", "512 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}

/** A body passed its cap: its stream was cancelled there, and nothing of it is used. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body weighed more than ${formatBytes(maxBytes)}`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads a response's body as a stream, at most `maxBytes` of it: a remote's answer is untrusted
 * input, so no body is ever read whole before its size is known (DESIGN section 5). Past the
 * cap the stream is cancelled (the connection is closed, nothing more is received) and
 * {@link BodyTooLargeError} raised; a `Content-Length` above the cap fails before any byte is
 * read. A body that breaks off rejects as the stream does. An absent body is empty. When
 * `signal` aborts (the request's timeout or interrupt, remote-tenant.ts), the stream is
 * cancelled here and the read rejects with its reason: fetch's own link from its signal to a
 * body it has answered with is held weakly, and a garbage collection can drop it (undici #4068).
 */
export async function readBodyCapped(response: Response, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  // A cancelled stream ends its pending read as done: the loop below then says why.
  const cancel = () => void reader.cancel(signal!.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLargeError(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  return Buffer.concat(chunks, received);
}
