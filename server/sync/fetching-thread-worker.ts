// The fetching thread of the syncs (started by fetching-thread.ts): it requests the pages of the
// remote's lists within each sync's window, reads and validates them, and hands them on in order,
// while the sync's thread writes the pages before them.
import { setMaxListeners } from 'node:events';
import { parentPort } from 'node:worker_threads';
import type { FetchFailure, FetchedPage, FetchingCommand, FetchingEvent, ListRequest } from './fetching-thread-channel.js';
import { PageWindow } from './page-window.js';
import { PageTooHeavyError, type RawPage, fetchPage } from './remote-pages.js';
import { validatedPage } from './validated-page.js';
import { RemoteRefusedError, SyncFailedError } from './sync-errors.js';
import type { RemoteTenant } from '../remote/remote-tenant.js';
import type { SyncPolicy } from './sync-policy.js';

const channel = parentPort!;
const post = (event: FetchingEvent) => channel.postMessage(event);

/** A failure as the sync's thread raises it again. */
function failureOf(error: unknown): FetchFailure {
  if (error instanceof PageTooHeavyError) return { kind: 'too-heavy', message: error.message };
  if (error instanceof RemoteRefusedError) return { kind: 'refused', message: error.message, status: error.status };
  if (error instanceof SyncFailedError) return { kind: 'sync-failed', message: error.message };
  return error instanceof Error ? { kind: 'error', name: error.name, message: error.message } : { kind: 'error', name: 'Error', message: String(error) };
}

/** A sync: its remote, its policy and its window, which every list it pages shares. */
class Session {
  readonly window: PageWindow;
  readonly lists = new Map<number, ListPaging>();

  constructor(
    readonly id: number,
    readonly remote: RemoteTenant,
    readonly policy: SyncPolicy,
  ) {
    this.window = new PageWindow(policy.pagesInFlightBound, policy.pagesInFlightAtFirst, policy.pageMaxBytes, policy.pagesHeldMaxBytes);
  }

  /** Room was made in the window: its lists ask for more. */
  fill(): void {
    for (const list of this.lists.values()) list.fill();
  }
}

/**
 * One list as it is paged: pages requested in order as the window has room, handed on in order
 * as they arrive, held (in flight, arrived, or handed on and not yet taken) within the window's
 * bytes. A page that fails is handed on in its place, and nothing after it is.
 */
class ListPaging {
  private readonly controller = new AbortController();
  private nextOffset: number;
  private nextToHand: number;
  private readonly arrived = new Map<number, FetchedPage | FetchFailure>();
  /** The bytes of each page handed on and not yet taken, oldest first. */
  private readonly handed: number[] = [];
  private stopped = false;

  constructor(
    private readonly session: Session,
    private readonly id: number,
    private readonly request: ListRequest,
  ) {
    this.nextOffset = request.from;
    this.nextToHand = request.from;
    // Each request in flight listens to it, and a retry's wait: as many as the window holds.
    setMaxListeners(0, this.controller.signal);
  }

  fill(): void {
    const { window } = this.session;
    while (!this.stopped && this.nextOffset < this.request.end && window.hasRoom) {
      window.enter();
      const offset = this.nextOffset;
      this.nextOffset += this.request.stride;
      void this.fetch(offset);
    }
  }

  took(): void {
    const bytes = this.handed.shift();
    if (bytes !== undefined) this.session.window.taken(bytes);
  }

  /** Asks no more: what is in flight is aborted, what is held is freed. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.controller.abort(new Error('The list was stopped'));
    const { window } = this.session;
    for (const held of this.arrived.values()) if ('items' in held) window.taken(held.bytes);
    this.arrived.clear();
    for (const bytes of this.handed.splice(0)) window.taken(bytes);
  }

  private async fetch(offset: number): Promise<void> {
    const { session, request } = this;
    const { window } = session;
    let raw: RawPage;
    try {
      raw = await fetchPage(session.remote, `${request.before}${offset}${request.after}`, session.policy, this.controller.signal, window);
    } catch (error) {
      window.failed();
      if (this.stopped) return;
      this.arrived.set(offset, failureOf(error));
      // Nothing after a failed page is asked for.
      this.nextOffset = Math.max(this.nextOffset, this.request.end);
      this.handOn();
      return;
    }
    window.arrived(raw.bytes);
    if (this.stopped) {
      window.taken(raw.bytes);
      return;
    }
    this.arrived.set(offset, validatedPage(request, offset, raw));
    this.handOn();
    session.fill();
  }

  private handOn(): void {
    for (let next = this.arrived.get(this.nextToHand); next !== undefined && !this.stopped; next = this.arrived.get(this.nextToHand)) {
      this.arrived.delete(this.nextToHand);
      this.nextToHand += this.request.stride;
      if (!('items' in next)) {
        post({ type: 'failed', session: this.session.id, list: this.id, failure: next });
        this.stop();
        return;
      }
      this.handed.push(next.bytes);
      post({ type: 'page', session: this.session.id, list: this.id, page: next });
    }
  }
}

const sessions = new Map<number, Session>();

channel.on('message', (command: FetchingCommand) => {
  if (command.type === 'open') {
    const session = new Session(command.session, command.remote, command.policy);
    if (command.heavy) session.window.heavier();
    sessions.set(command.session, session);
    return;
  }
  const session = sessions.get(command.session);
  if (!session) return;
  switch (command.type) {
    case 'close':
      for (const list of session.lists.values()) list.stop();
      sessions.delete(session.id);
      return;
    case 'list': {
      const list = new ListPaging(session, command.list, command.request);
      session.lists.set(command.list, list);
      list.fill();
      return;
    }
    case 'took':
      session.lists.get(command.list)?.took();
      session.fill();
      return;
    case 'stop':
      session.lists.get(command.list)?.stop();
      session.lists.delete(command.list);
      session.fill();
      return;
    case 'heavier':
      session.window.heavier();
      return;
  }
});
