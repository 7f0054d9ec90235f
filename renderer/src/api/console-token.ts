import { desktopBridge } from '../desktop-bridge';

/** The desktop app's console token, sent in a header; undefined in a browser, whose session is a cookie it never reads. */
export function consoleToken(): string | undefined {
  return desktopBridge()?.consoleToken;
}

/** Whether the console may open, and when it may not, why (the server's words). */
export type ConsoleAccess = { open: true } | { open: false; refusal: string | undefined };

const postToken = (token: string) =>
  fetch('/app/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });

/**
 * Opens the console's access. The desktop app hands its token over the bridge. In a browser, a
 * console link's `#token=` fragment (which never reaches a server by itself) is posted once to
 * `POST /app/session`, which sets the session cookie, and dropped from the address bar; every
 * later tab, bookmark and reload then rides on the cookie, which `GET /app/session` checks.
 * A used link in a browser that has a session opens the console all the same.
 */
export async function openConsoleAccess(): Promise<ConsoleAccess> {
  if (desktopBridge()) return { open: true };
  let refusal: string | undefined;
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (token) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    const opened = await postToken(token).catch(() => undefined);
    if (opened?.ok) return { open: true };
    refusal = ((await opened?.json().catch(() => undefined)) as { error?: string } | undefined)?.error;
  }
  const session = await fetch('/app/session').catch(() => undefined);
  if (session?.ok) return { open: true };
  return { open: false, refusal: session ? refusal : 'The console cannot reach its server. Is it still running?' };
}
