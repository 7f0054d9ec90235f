import { Worker } from 'node:worker_threads';
import type { FetchFailure, FetchedPage, FetchingCommand, FetchingEvent, ListRequest } from './fetching-thread-channel.js';
import type { RemoteTenant } from '../remote/remote-tenant.js';
import { threadScript } from '../remote/thread-script.js';
import { PageTooHeavyError } from './remote-pages.js';
import { RemoteRefusedError, SyncFailedError } from './sync-errors.js';
import type { SyncPolicy } from './sync-policy.js';

/** The error a {@link FetchFailure} describes, raised in this thread as the fetching thread raised it. */
function errorOf(failure: FetchFailure): Error {
  switch (failure.kind) {
    case 'too-heavy':
      return new PageTooHeavyError(failure.message);
    case 'refused':
      return new RemoteRefusedError(failure.message, failure.status);
    case 'sync-failed':
      return new SyncFailedError(failure.message);
    case 'error': {
      const error = new Error(failure.message);
      error.name = failure.name;
      return error;
    }
  }
}

/**
 * The pages of one list, in order, as the fetching thread hands them on. {@link next} answers
 * the next page, or rejects with why it could not be had (or with the sync's signal's reason);
 * {@link stop} ends the list, whatever is in flight.
 */
export class ListPages {
  private readonly arrived: FetchedPage[] = [];
  private failure: Error | undefined;
  private waiting: { resolve: (page: FetchedPage) => void; reject: (error: unknown) => void } | undefined;
  private stopped = false;

  constructor(
    private readonly send: (command: FetchingCommand) => void,
    private readonly session: number,
    private readonly list: number,
    private readonly onStop: () => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The next page of the list. */
  next(): Promise<FetchedPage> {
    this.signal?.throwIfAborted();
    const page = this.arrived.shift();
    if (page) return Promise.resolve(this.took(page));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** Ends the list: the fetching thread asks no more of it and frees what it held. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.arrived.length = 0;
    this.send({ type: 'stop', session: this.session, list: this.list });
    this.onStop();
  }

  /** @internal The fetching thread handed on a page. */
  page(page: FetchedPage): void {
    if (this.stopped) return;
    const waiting = this.waiting;
    if (!waiting) {
      this.arrived.push(page);
      return;
    }
    this.waiting = undefined;
    waiting.resolve(this.took(page));
  }

  /** @internal The list's next page failed (or the fetching thread did). */
  failed(error: Error): void {
    this.failure ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  private took(page: FetchedPage): FetchedPage {
    this.send({ type: 'took', session: this.session, list: this.list });
    return page;
  }

  private readonly onAbort = () => {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.signal!.reason);
  };
}

/**
 * A sync's requests of its remote's lists, made on the fetching thread ({@link FetchingThread})
 * within the sync's window of pages in flight (page-window.ts), which lives there and carries
 * over from list to list until {@link close}.
 */
export class RemotePages {
  private nextList = 1;
  private nextAsk = 1;
  /** @internal */
  readonly lists = new Map<number, ListPages>();
  /** @internal */
  readonly asks = new Map<number, (heavier: boolean) => void>();

  constructor(
    private readonly thread: FetchingThread,
    /** @internal */
    readonly session: number,
  ) {}

  /** Pages a list (the pages of `request`); `signal` interrupts the wait for its pages. */
  list(request: ListRequest, signal?: AbortSignal): ListPages {
    const id = this.nextList++;
    const pages = new ListPages((command) => this.thread.send(command), this.session, id, () => this.lists.delete(id), signal);
    this.lists.set(id, pages);
    this.thread.send({ type: 'list', session: this.session, list: id, request });
    return pages;
  }

  /** Pages of the smallest size weighed more than their share: answers whether heavier ones may come now (PageWindow.heavier). */
  heavier(): Promise<boolean> {
    const ask = this.nextAsk++;
    return new Promise((resolve) => {
      this.asks.set(ask, resolve);
      this.thread.send({ type: 'heavier', session: this.session, ask });
    });
  }

  /** The sync ended: its lists stop, its window is forgotten. */
  close(): void {
    for (const list of [...this.lists.values()]) list.stop();
    this.thread.close(this);
  }
}

/**
 * The young generation of the fetching thread's heap, in MiB: what it allocates is a page's
 * parse and validation, garbage within milliseconds. V8's default (16 MiB semi-spaces, 32 MiB in
 * all) added that much to a full sync's peak.
 */
const youngGenerationMb = 4;

/**
 * The thread that requests the pages of the syncs' lists, one for the process while syncs run:
 * started by a sync when none runs, ended when the last one ends. The remote's answers arrive,
 * are read and validated there while the sync's thread writes the pages before them, so that a
 * write (100 ms in the command line) does not hold the link
 * (docs/decisions/sync/pages-are-fetched-on-a-thread-of-their-own.md).
 */
export class FetchingThread {
  private static current: FetchingThread | undefined;
  private readonly worker: Worker;
  private readonly sessions = new Map<number, RemotePages>();
  private nextSession = 1;

  private constructor() {
    const [script, evaluate] = threadScript(new URL('./fetching-thread-worker.js', import.meta.url), import.meta.url);
    this.worker = new Worker(script, { eval: evaluate, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
    this.worker.on('message', (event: FetchingEvent) => this.received(event));
    const ended = (why: Error) => {
      if (FetchingThread.current === this) FetchingThread.current = undefined;
      for (const session of this.sessions.values()) {
        for (const list of session.lists.values()) list.failed(why);
        for (const answer of session.asks.values()) answer(false);
      }
    };
    this.worker.on('error', (error) => ended(new Error(`The sync's fetching thread failed: ${error.message}`, { cause: error })));
    this.worker.on('exit', (code) => ended(new Error(`The sync's fetching thread ended (exit code ${code})`)));
  }

  /** The process's fetching thread, started if none runs. */
  static shared(): FetchingThread {
    return (FetchingThread.current ??= new FetchingThread());
  }

  /** A sync starts: answers its requests of `remote`'s lists, under `policy`. */
  open(remote: RemoteTenant, policy: SyncPolicy): RemotePages {
    const pages = new RemotePages(this, this.nextSession++);
    this.sessions.set(pages.session, pages);
    this.send({ type: 'open', session: pages.session, remote, policy });
    return pages;
  }

  /** @internal */
  send(command: FetchingCommand): void {
    this.worker.postMessage(command);
  }

  /** @internal The last sync that used the thread ends it: an idle thread would hold its memory until the next. */
  close(pages: RemotePages): void {
    if (!this.sessions.delete(pages.session)) return;
    this.send({ type: 'close', session: pages.session });
    if (this.sessions.size > 0) return;
    if (FetchingThread.current === this) FetchingThread.current = undefined;
    void this.worker.terminate();
  }

  private received(event: FetchingEvent): void {
    const session = this.sessions.get(event.session);
    if (!session) return;
    if (event.type === 'heavier') {
      session.asks.get(event.ask)?.(event.heavier);
      session.asks.delete(event.ask);
      return;
    }
    const list = session.lists.get(event.list);
    if (event.type === 'page') list?.page(event.page);
    else list?.failed(errorOf(event.failure));
  }
}
