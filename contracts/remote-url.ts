/**
 * Normalizes a remote tenant's base URL: http or https, no credentials, query or fragment; undefined when it is none.
 * A trailing `/v1` (or `/v1/`) is dropped: it is the API's own prefix, which a user copies with the base URL (the
 * console shows its address as `http://127.0.0.1:PORT/v1`), and the sync adds it to every path.
 */
export function parseRemoteUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) return undefined;
  // From its parts: the href of `https://host/?` keeps its empty query.
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/v1$/, '');
}
