import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { captureConsoleToken, consoleToken } from './api/console-token';
import { queryClient } from './api/query-client';
import { routes } from './views/routes';
import './styles/base.css';
import './styles/layout.css';
import './styles/table.css';
import './styles/dashboard.css';
import './styles/software.css';
import './styles/exceptions.css';

captureConsoleToken();

function MissingToken() {
  return (
    <main className="state state--page">
      <h1>Remediation Console</h1>
      <p>
        This console needs the one-time link that <code>remediation-console serve</code> prints (it ends in <code>#token=…</code>). Open that
        link in this browser.
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {consoleToken() ? (
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createBrowserRouter(routes)} />
      </QueryClientProvider>
    ) : (
      <MissingToken />
    )}
  </StrictMode>,
);
