import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { ReplicaSync, ServerFailure, ServerThreadCommand, ServerThreadEvent, StartedServer, SyncAlert } from '../contracts/server-thread-channel.js';
import { answerSealingRequests, type SealingEnd, sealingChannel } from './secrets/sealer-across-threads.js';
import type { Sealer } from './secrets/sealer.js';
import { DataDirectoryLockedError } from './store/engine/data-directory-lock.js';
import { threadScript } from './remote/thread-script.js';

/** How the product's server is started, headless (`serve`) or in the desktop app. */
export interface ConsoleServerWorkerOptions {
  dataDir: string;
  /**
   * Makes the sealer, in the calling thread, once the server's thread holds the data directory's
   * lock: the server's thread seals and unseals through it, over the channel.
   */
  sealer: (dataDir: string) => Sealer;
  host?: string;
  port?: number;
  /** What the process is, recorded in the data-directory lock. */
  command: string;
}

/** What the server's thread is started with (`workerData`). */
export interface ConsoleServerWorkerData {
  dataDir: string;
  host: string | undefined;
  port: number | undefined;
  command: string;
  sealing: SealingEnd;
}

/** What {@link ConsoleServerWorker} emits. */
export interface ConsoleServerWorkerEvents {
  /** The replicas' sync states changed. */
  replicas: [ReplicaSync[]];
  /** A sync brought findings newly open critical or KEV. */
  'sync-alert': [SyncAlert];
  /** The server's thread failed after it started (an uncaught error, or it ended unasked): the server is gone. */
  failed: [Error];
}

/**
 * The product's server, running in a worker thread: the store, HTTP, the sync scheduler and the
 * warm-ups all run there, and the calling thread only hears of them over the channel.
 */
export class ConsoleServerWorker extends EventEmitter<ConsoleServerWorkerEvents> {
  /** The server as it started: its URL, tokens and thread. */
  readonly server: Omit<StartedServer, 'replicas'>;
  private latestReplicas: ReplicaSync[];
  private stopping: Promise<void> | undefined;
  private ended = false;

  /** Follows the thread of `worker`, whose server has just reported `started`. */
  constructor(
    private readonly worker: Worker,
    started: StartedServer,
  ) {
    super();
    const { replicas, ...server } = started;
    this.server = server;
    this.latestReplicas = replicas;
    let crash: Error | undefined;
    worker.on('message', (event: ServerThreadEvent) => {
      if (event.type === 'sync-alert') this.emit('sync-alert', event.alert);
      if (event.type !== 'replicas') return;
      this.latestReplicas = event.replicas;
      this.emit('replicas', event.replicas);
    });
    worker.on('error', (error) => (crash ??= error));
    worker.once('exit', (code) => {
      this.ended = true;
      if (!this.stopping) this.emit('failed', crash ?? new Error(`The server's thread ended unexpectedly (exit code ${code})`));
    });
  }

  /** The replicas with their sync states, as last reported. */
  replicas(): ReplicaSync[] {
    return this.latestReplicas;
  }

  /** Starts a sync of a replica (its outcome is recorded in the store and reported in `replicas`). */
  syncNow(slug: string, full: boolean): void {
    if (!this.ended && !this.stopping) this.send({ type: 'sync-now', slug, full });
  }

  /**
   * Stops the server: its thread closes HTTP, stops the syncs and closes the store (which flushes
   * it and releases the data directory), then ends. Resolves once the thread has ended; rejects
   * when the server did not stop cleanly. Nothing to do when the thread has ended already.
   */
  stop(): Promise<void> {
    this.stopping ??= this.ended ? Promise.resolve() : this.stopThread();
    return this.stopping;
  }

  private async stopThread(): Promise<void> {
    const stopped = new Promise<ServerFailure | undefined>((resolve) => {
      this.worker.on('message', (event: ServerThreadEvent) => {
        if (event.type === 'stopped') resolve(event.failure);
      });
      this.worker.once('exit', () => resolve({ kind: 'error', name: 'Error', message: "The server's thread ended before it stopped", stack: undefined }));
    });
    this.send({ type: 'stop' });
    const failure = await stopped;
    // The store is closed, or the thread gone: whatever else the thread holds goes with it.
    await this.worker.terminate();
    if (failure) throw errorOf(failure);
  }

  private send(command: ServerThreadCommand): void {
    this.worker.postMessage(command);
  }
}

/**
 * Starts the product's server in a worker thread (`serve` and the desktop app both start it
 * here): opens the data directory (taking its lock), creates the demo organization in an empty
 * one, and serves the v1 API, /app and the console on a loopback port. The sealer is made and
 * used in the calling thread, which answers the server's sealing requests. Rejects with the
 * server's error when it cannot start (a {@link DataDirectoryLockedError} as such).
 */
export function startConsoleServerWorker(options: ConsoleServerWorkerOptions): Promise<ConsoleServerWorker> {
  const sealing = sealingChannel();
  const stopAnswering = answerSealingRequests(sealing.answering, () => options.sealer(options.dataDir));
  const workerData: ConsoleServerWorkerData = {
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    command: options.command,
    sealing: sealing.asking,
  };
  const [script, evaluate] = threadScript(new URL('./console-server-worker.js', import.meta.url), import.meta.url);
  const worker = new Worker(script, { eval: evaluate, workerData, transferList: [sealing.asking.port] });
  worker.once('exit', stopAnswering);

  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    const onMessage = (event: ServerThreadEvent) => {
      if (event.type === 'started') {
        settle();
        resolve(new ConsoleServerWorker(worker, event.server));
      } else if (event.type === 'start-failed') {
        failure = errorOf(event.failure);
        // The thread has closed its store: nothing of it is left to wait for.
        void worker.terminate();
      }
    };
    const onError = (error: Error) => (failure ??= error);
    const onExit = (code: number) => {
      settle();
      reject(failure ?? new Error(`The server's thread ended (exit code ${code}) before the server started`));
    };
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/** The error a {@link ServerFailure} describes, raised in this thread as it was in the server's. */
function errorOf(failure: ServerFailure): Error {
  if (failure.kind === 'data-directory-locked') return new DataDirectoryLockedError(failure.dataDir, failure.holder);
  const error = new Error(failure.message);
  error.name = failure.name;
  if (failure.stack) error.stack = failure.stack;
  return error;
}
