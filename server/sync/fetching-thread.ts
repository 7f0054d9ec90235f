import { Worker } from 'node:worker_threads';
import type { FetchFailure, FetchedPage, FetchingCommand, FetchingEvent, ListRequest } from './fetching-thread-channel.js';
import type { RemoteTenant } from '../remote/remote-tenant.js';
import { threadScript } from '../remote/thread-script.js';
import { PageWindow } from './page-window.js';
import { PageTooHeavyError, fetchPage } from './remote-pages.js';
import { RemoteRefusedError, SyncFailedError } from './sync-errors.js';
import type { SyncPolicy } from './sync-policy.js';
import { validatedPage } from './validated-page.js';

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
 * The pages of one list, in order. {@link next} answers the next page, or rejects with why it
 * could not be had (or with the sync's signal's reason); {@link stop} ends the list, whatever is
 * in flight.
 */
export interface ListPages {
  next(): Promise<FetchedPage>;
  stop(): void;
}

/** A list's pages as the fetching thread hands them on. */
class ThreadListPages implements ListPages {
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
 * A list of one page (each list's first, and a rest that fits in one page), requested, read and
 * validated on the sync's own thread: a sync whose lists each fit in a page (one that finds
 * nothing new) never starts the fetching thread, whose start (its modules, and a connection of
 * its own to the remote) was most of what such a sync took.
 */
class OnePage implements ListPages {
  private readonly controller = new AbortController();
  private page: Promise<FetchedPage> | undefined;

  constructor(
    remote: RemoteTenant,
    policy: SyncPolicy,
    window: PageWindow,
    request: ListRequest,
    private readonly onStop: () => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
    const page = fetchPage(remote, `${request.before}${request.from}${request.after}`, policy, this.controller.signal, window).then((raw) =>
      validatedPage(request, request.from, raw),
    );
    // Read by next(); a page stopped before is not wanted, nor its failure.
    page.catch(() => undefined);
    this.page = page;
  }

  next(): Promise<FetchedPage> {
    this.signal?.throwIfAborted();
    const page = this.page;
    this.page = undefined;
    return page ?? Promise.reject(new Error('The list had one page'));
  }

  stop(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.controller.abort(new Error('The list was stopped'));
    this.onStop();
  }

  private readonly onAbort = () => this.controller.abort(this.signal!.reason);
}

/**
 * A sync's requests of its remote's lists. A list of one page is requested on the sync's own
 * thread ({@link OnePage}); a longer one on the fetching thread ({@link FetchingThread}), started
 * at the first such list, within the sync's window of pages in flight (page-window.ts), which
 * lives there and carries over from list to list until {@link close}. The pages of one page
 * have a window of their own here, of the same bounds: it holds back their requests while a
 * `Retry-After` runs, and says what a page may weigh.
 */
export class RemotePages {
  private nextList = 1;
  /** @internal */
  readonly lists = new Map<number, ThreadListPages>();
  private readonly onePages = new Set<OnePage>();
  private readonly window: PageWindow;
  private attached: { thread: FetchingThread; session: number } | undefined;

  constructor(
    /** @internal */
    readonly remote: RemoteTenant,
    /** @internal */
    readonly policy: SyncPolicy,
  ) {
    this.window = new PageWindow(policy.pagesInFlightBound, policy.pagesInFlightAtFirst, policy.pageMaxBytes, policy.pagesHeldMaxBytes);
  }

  /** Pages a list (the pages of `request`); `signal` interrupts the wait for its pages. */
  list(request: ListRequest, signal?: AbortSignal): ListPages {
    if (request.from + request.stride >= request.end) {
      const page: OnePage = new OnePage(this.remote, this.policy, this.window, request, () => this.onePages.delete(page), signal);
      this.onePages.add(page);
      return page;
    }
    const { thread, session } = this.thread();
    const id = this.nextList++;
    const pages = new ThreadListPages((command) => thread.send(command), session, id, () => this.lists.delete(id), signal);
    this.lists.set(id, pages);
    thread.send({ type: 'list', session, list: id, request });
    return pages;
  }

  /**
   * Pages of the smallest size weighed more than their share: answers whether heavier ones may
   * come now (PageWindow.heavier). The fetching thread's window follows this one: told so when it
   * runs (before any list asked after this), started so ({@link heavy}) when it starts later. Both
   * windows have the same bounds and change only here, so this one's answer is the thread's too.
   */
  heavier(): boolean {
    if (!this.window.heavier()) return false;
    if (this.attached) this.attached.thread.send({ type: 'heavier', session: this.attached.session });
    return true;
  }

  /**
   * The sync's pulls ended: its lists stop, and its session of the fetching thread, which ends
   * with the last (a later list starts one again, with the window learnt so far).
   */
  close(): void {
    for (const page of [...this.onePages]) page.stop();
    for (const list of [...this.lists.values()]) list.stop();
    if (this.attached) this.attached.thread.close(this.attached.session);
    this.attached = undefined;
  }

  /** Whether pages may weigh up to the bound of a body: the fetching thread's window starts so. */
  get heavy(): boolean {
    return this.window.heavy;
  }

  private thread(): { thread: FetchingThread; session: number } {
    return (this.attached ??= FetchingThread.shared().attach(this));
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
      }
    };
    this.worker.on('error', (error) => ended(new Error(`The sync's fetching thread failed: ${error.message}`, { cause: error })));
    this.worker.on('exit', (code) => ended(new Error(`The sync's fetching thread ended (exit code ${code})`)));
  }

  /** The process's fetching thread, started if none runs. */
  static shared(): FetchingThread {
    return (FetchingThread.current ??= new FetchingThread());
  }

  /** @internal A sync's first list of more than a page: the thread pages its lists from now on, in a session of its own. */
  attach(pages: RemotePages): { thread: FetchingThread; session: number } {
    const session = this.nextSession++;
    this.sessions.set(session, pages);
    this.send({ type: 'open', session, remote: pages.remote, policy: pages.policy, heavy: pages.heavy });
    return { thread: this, session };
  }

  /** @internal */
  send(command: FetchingCommand): void {
    this.worker.postMessage(command);
  }

  /** @internal The last sync that used the thread ends it: an idle thread would hold its memory until the next. */
  close(session: number): void {
    if (!this.sessions.delete(session)) return;
    this.send({ type: 'close', session });
    if (this.sessions.size > 0) return;
    if (FetchingThread.current === this) FetchingThread.current = undefined;
    void this.worker.terminate();
  }

  private received(event: FetchingEvent): void {
    const session = this.sessions.get(event.session);
    if (!session) return;
    const list = session.lists.get(event.list);
    if (event.type === 'page') list?.page(event.page);
    else list?.failed(errorOf(event.failure));
  }
}
