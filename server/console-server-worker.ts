// The worker thread of the product's server (started by start-console-server-worker.ts, for
// `serve` and the desktop app): the store, HTTP, the sync scheduler and the warm-ups run here,
// never in the thread that started it.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { ServerFailure, ServerThreadCommand, ServerThreadEvent } from '../contracts/server-thread-channel.js';
import { sealerOfOtherThread } from './secrets/sealer-across-threads.js';
import type { ConsoleServerWorkerData } from './start-console-server-worker.js';
import { readDatabaseFileAhead } from './store/engine/database-file.js';
import { dataDirectoryFiles } from './store/engine/data-directory.js';
import { DataDirectoryLockedError } from './store/engine/data-directory-lock.js';
import { loadSqlJs } from './store/engine/sql-js.js';

const options = workerData as ConsoleServerWorkerData;
const channel = parentPort!;
const post = (event: ServerThreadEvent) => channel.postMessage(event);

// The database file and sql.js load while the server's modules do: a cold start waits for the
// longer of the two, not for both.
readDatabaseFileAhead(dataDirectoryFiles(options.dataDir).database);
void loadSqlJs();
const [{ startConsoleServer }, { followSyncAlerts, followSyncs, replicaSyncs }] = await Promise.all([
  import('./start-console-server.js'),
  import('./sync/replica-syncs.js'),
]);

try {
  const running = await startConsoleServer({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    command: options.command,
    sealer: () => sealerOfOtherThread(options.sealing),
  });
  const { server, store, sync } = running;
  const reportReplicas = () => post({ type: 'replicas', replicas: replicaSyncs(store, sync) });
  const stopFollowingSyncs = followSyncs(sync, reportReplicas);
  const stopFollowingAlerts = followSyncAlerts(store, sync, (alert) => post({ type: 'sync-alert', alert }));
  const onCommand = (command: ServerThreadCommand) => {
    if (command.type === 'sync-now') {
      // The outcome is recorded in the store and reported with the replicas.
      sync.syncNow(command.slug, { full: command.full }).catch(() => undefined);
      reportReplicas();
      return;
    }
    channel.off('message', onCommand);
    stopFollowingSyncs();
    stopFollowingAlerts();
    running.stop().then(
      () => post({ type: 'stopped', failure: undefined }),
      (error: unknown) => post({ type: 'stopped', failure: failureOf(error) }),
    );
  };
  channel.on('message', onCommand);
  post({
    type: 'started',
    server: {
      url: server.url,
      port: server.port,
      consoleToken: running.consoleToken,
      demoApiKey: running.demoApiKey,
      threadId,
      replicas: replicaSyncs(store, sync),
    },
  });
} catch (error) {
  post({ type: 'start-failed', failure: failureOf(error) });
}

/** An error as the channel carries it. */
function failureOf(error: unknown): ServerFailure {
  if (error instanceof DataDirectoryLockedError) return { kind: 'data-directory-locked', dataDir: error.dataDir, holder: error.holder };
  if (error instanceof Error) return { kind: 'error', name: error.name, message: error.message, stack: error.stack };
  return { kind: 'error', name: 'Error', message: String(error), stack: undefined };
}
