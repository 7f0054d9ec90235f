import os from 'node:os';

/**
 * The name of the local user the server runs as: who an exception is made, edited or revoked
 * by. The console is a desktop app of one user (the headless server, of whoever started it),
 * and its API is reached with this run's console token or a session opened with a link that
 * user printed (serve, console-url), so the server's user is the one acting; a body never names it. Without an account name (a container's user without a passwd
 * entry) the environment's, else "unknown".
 */
export function localUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER || process.env.USERNAME || 'unknown';
  }
}
