/** Normalizes a remote tenant's base URL: http or https, no credentials, query or fragment; undefined when it is none. */
export function parseRemoteUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) return undefined;
  return url.href.replace(/\/+$/, '');
}
