import type { FieldIssue } from '../../../contracts/common';
import { consoleToken } from './console-token';

/** An error answer of the server, with its status, `{"error"}` message and, for an invalid body, each field's issue. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What to tell the user of a failed request: the server's own message, or `fallback` where there is none (the server could not be reached). */
export function errorMessage(error: Error | null, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

/** The headers every /app request carries. */
export function consoleHeaders(): Record<string, string> {
  const token = consoleToken();
  return token ? { 'x-console-token': token } : {};
}

/** Calls the console's API under /app and answers the response; an error answer is thrown as {@link ApiError}. */
export async function consoleRequest(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`/app${path}`, { ...init, headers: { ...consoleHeaders(), ...init.headers } });
  } catch {
    throw new ApiError(0, 'The console cannot reach its server. Is it still running?');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { error?: string; issues?: FieldIssue[] } | undefined;
    throw new ApiError(response.status, body?.error ?? `The server answered ${response.status}`, body?.issues);
  }
  return response;
}

/** GETs (or sends) JSON under /app. */
export async function consoleJson<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const response = await consoleRequest(path, {
    ...rest,
    ...(json === undefined ? {} : { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
  });
  return (response.status === 204 ? undefined : await response.json()) as T;
}
