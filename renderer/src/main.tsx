import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { cliCommand } from '../../contracts/cli-command';
import { type ConsoleAccess, openConsoleAccess } from './api/console-token';
import { listenForEscapeBack } from './lib/opened-from-table';
import { queryClient } from './api/query-client';
import { routes } from './views/routes';
import './styles/base.css';
import './styles/layout.css';
import './styles/table.css';
import './styles/dashboard.css';
import './styles/software.css';
import './styles/exceptions.css';
import './styles/endpoint-context.css';

const consoleUrl = cliCommand('console-url');

/** Where a browser without a console session is told how to get one. */
function MissingSession({ refusal }: { refusal: string | undefined }) {
  return (
    <main className="state state--page">
      <h1>Remediation Console</h1>
      {refusal ? <p role="alert">{refusal}</p> : null}
      <p>
        This browser has no console session. Open a one-time link of this server in it: for a new link, run <code>{consoleUrl.installed}</code> or,
        from a checkout of the project, in its folder, <code>{consoleUrl.checkout}</code> (with the <code>--data-dir</code> of the server, if you
        gave one). Restarting the server also prints one. The browser then keeps its session, in every tab, bookmark and reload.
      </p>
    </main>
  );
}

const root = createRoot(document.getElementById('root')!);

function render(access: ConsoleAccess) {
  if (!access.open) {
    root.render(
      <StrictMode>
        <MissingSession refusal={access.refusal} />
      </StrictMode>,
    );
    return;
  }
  const router = createBrowserRouter(routes);
  listenForEscapeBack(router);
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}

void openConsoleAccess().then(render);
