import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { onTestFinished } from 'vitest';
import { queryClient } from '../api/query-client';
import { routes } from '../views/routes';

/**
 * Opens the console at `url` (a path of its routes, with its query) in jsdom's address bar, as the
 * desktop app does, against the component tests' server. Answers the user who acts on it and the
 * router, whose location is the URL every view keeps its state in.
 */
export function openConsole(url: string) {
  window.history.replaceState(null, '', url);
  const router = createBrowserRouter(routes);
  onTestFinished(() => router.dispose());
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { user, search: () => new URLSearchParams(router.state.location.search), router };
}
