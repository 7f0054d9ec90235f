import { useMutation } from '@tanstack/react-query';
import { consoleJson } from './console-fetch';

/**
 * Ends this browser's console session (`DELETE /app/session` drops its cookie), then reloads the
 * page, which finds no session and says how to open one again: nothing of the session stays in
 * the page's memory.
 */
export function useEndSession() {
  return useMutation({
    mutationFn: () => consoleJson<void>('/session', { method: 'DELETE' }),
    onSuccess: () => window.location.reload(),
  });
}
