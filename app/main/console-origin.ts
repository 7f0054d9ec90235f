/** True when `url` parses as an absolute URL of exactly `origin` (scheme, host and port). */
export function isConsoleUrl(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
