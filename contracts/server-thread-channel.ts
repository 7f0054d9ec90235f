import type { SecretStorage } from './console/session.js';
import type { SyncStatus } from './console/sync.js';
import type { SyncChangesSummary } from './console/sync-changes.js';

/**
 * The channel between the thread that starts the server (`serve`'s main thread, Electron's main
 * process) and the worker thread that runs it (the store, HTTP, the sync scheduler and the
 * warm-ups): the messages each side sends, declared once for both. Types only: what crosses is
 * structured-cloned, so every value here is plain data.
 */

/** A replica as the desktop app's Sync menu lists it. */
export interface ReplicaSync {
  slug: string;
  name: string;
  status: SyncStatus;
}

/**
 * A sync of a replica that brought findings newly open critical or KEV: what the desktop app's
 * notification says, and the recorded changes it opens when clicked.
 */
export interface SyncAlert {
  slug: string;
  name: string;
  changes: SyncChangesSummary;
}

/** The started server, as its thread reports it. */
export interface StartedServer {
  /** The base URL the server answers at, e.g. `http://127.0.0.1:7300`. */
  url: string;
  port: number;
  /** The console's token for /app; the desktop app hands it over its bridge. */
  consoleToken: string;
  /** The demo organization's API key when this start created it. */
  demoApiKey: string | undefined;
  /** The worker thread's id: not the starting thread's. */
  threadId: number;
  /** Every replica with its sync status, at start. */
  replicas: ReplicaSync[];
}

/** Why the server could not start, or stopped: enough to raise the same error on the other side. */
export type ServerFailure =
  | { kind: 'data-directory-locked'; dataDir: string; holder: { pid: number; command: string; startedAt: string } }
  | { kind: 'error'; name: string; message: string; stack: string | undefined };

/** From the starting thread to the server's thread. */
export type ServerThreadCommand =
  /** Syncs a replica now (Sync → Sync Now, Full Sync); the outcome is recorded in the store and reported in `replicas`. */
  | { type: 'sync-now'; slug: string; full: boolean }
  /** Stops the server: closes HTTP, stops the syncs, closes the store (which flushes it), then the thread ends. */
  | { type: 'stop' };

/** From the server's thread to the starting thread. */
export type ServerThreadEvent =
  | { type: 'started'; server: StartedServer }
  | { type: 'start-failed'; failure: ServerFailure }
  /** The replicas' sync states changed (a sync progressed, ended, failed; a replica was disconnected). */
  | { type: 'replicas'; replicas: ReplicaSync[] }
  /** A sync brought findings newly open critical or KEV (one event per such sync). */
  | { type: 'sync-alert'; alert: SyncAlert }
  /** The server stopped after `stop`; `failure` when it did not stop cleanly. The thread ends next. */
  | { type: 'stopped'; failure: ServerFailure | undefined };

/**
 * Sealing, on a port of its own: the server's thread asks and waits, blocked, for the answer
 * (sealing is synchronous inside the store's transactions); the starting thread, which holds the
 * sealer (Electron's safeStorage lives only in the main process), answers. `choose` comes first,
 * once, with the data directory's lock held.
 */
export type SealingRequest = { operation: 'choose' } | { operation: 'seal' | 'unseal'; bytes: Uint8Array };

/** The answer to a {@link SealingRequest}. */
export type SealingAnswer =
  | { ok: true; secretStorage: SecretStorage }
  | { ok: true; bytes: Uint8Array }
  | { ok: false; message: string };
