import { shell } from 'electron';

// Anything else (file:, javascript:, custom protocol handlers) could run code or open local
// files outside the sandbox, so only web pages and mail go to the system.
const externalSchemes = new Set(['http:', 'https:', 'mailto:']);

/**
 * Opens `url` in the system's browser or mail client when its scheme is http, https or mailto.
 * Returns whether it was handed over.
 */
export function openExternalLink(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!externalSchemes.has(parsed.protocol)) return false;
  const opening = shell.openExternal(parsed.href); // eng-disable OPEN_EXTERNAL_JS_CHECK: the scheme is checked above
  opening.catch((error: unknown) => console.error(`Could not open ${parsed.href}:`, error));
  return true;
}
