import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './console-fetch';

/** The console's one query cache: the views read it, and the routes start fetching into it as a navigation begins. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer will not change on a retry; a lost connection may.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});
