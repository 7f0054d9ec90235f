/**
 * A hand-written fake of the parts of the `electron` module the main process uses, for unit
 * tests (no Electron runtime is needed). Test files install it with
 * `vi.mock('electron', () => import('../test/fake-electron.js'))` and call
 * {@link resetFakeElectron} before each test.
 *
 * It records what the code under test did and lets a test play Electron's part: emit events,
 * invoke IPC handlers with a chosen sender, answer dialogs.
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import { vi } from 'vitest';

/** An Electron event: records `preventDefault`, carries its details (e.g. `url`) as fields. */
export class FakeEvent {
  defaultPrevented = false;
  returnValue: unknown;
  constructor(details: Record<string, unknown> = {}) {
    Object.assign(this, details);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** A frame of a page: a main frame, or a subframe of `parent`. */
export class FakeFrame {
  constructor(
    public url: string,
    public processId = 1,
    public routingId = 1,
    public parent: FakeFrame | null = null,
  ) {}
}

let nextProcessId = 1;

/** A web contents: navigations, window-open handler, its main frame. */
export class FakeWebContents extends EventEmitter {
  readonly mainFrame = new FakeFrame('about:blank', nextProcessId++, 1);
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  readonly loadURL = vi.fn(async (url: string) => {
    this.mainFrame.url = url;
  });
  /** Prints nothing: a test sets the PDF bytes it answers (and may look at the page as printed). */
  readonly printToPDF = vi.fn(async (_options: unknown): Promise<Buffer> => Buffer.alloc(0));
  /** Runs nothing: a test reads the scripts it was given. */
  readonly executeJavaScript = vi.fn(async (_code: string): Promise<unknown> => undefined);
  getURL(): string {
    return this.mainFrame.url;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation event as Electron does and tells whether it was refused. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    const fakeEvent = new FakeEvent({ url });
    this.emit(event, fakeEvent, url);
    return fakeEvent.defaultPrevented;
  }
  /** An IPC event as sent by `frame` (the main frame by default) of this web contents. */
  ipcEvent(frame: FakeFrame | null = this.mainFrame): FakeEvent {
    return new FakeEvent({ sender: this, senderFrame: frame });
  }
}

/** A browser window; every one made is in {@link BrowserWindow.instances}. */
export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly options: Record<string, unknown>;
  bounds: { x: number; y: number; width: number; height: number };
  maximized = false;
  minimized = false;
  destroyed = false;
  readonly show = vi.fn();
  readonly focus = vi.fn();

  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    const number = (key: string, fallback: number) => (typeof options[key] === 'number' ? (options[key] as number) : fallback);
    this.bounds = { x: number('x', 100), y: number('y', 100), width: number('width', 800), height: number('height', 600) };
    BrowserWindow.instances.push(this);
    app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Closes as Electron does: `close`, then destroyed, then `closed`. */
  close(): void {
    this.emit('close', new FakeEvent());
    this.destroyed = true;
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  name = 'electron';
  isPackaged = false;
  /** True once a quit went through (no will-quit listener held it back). */
  exited = false;
  readonly paths = new Map<string, string>();
  readonly requestSingleInstanceLock = vi.fn(() => true);
  readonly whenReady = vi.fn(async () => undefined);
  /** Quits as Electron does: will-quit, which a listener may hold back with preventDefault. */
  readonly quit = vi.fn(() => {
    const event = new FakeEvent();
    this.emit('will-quit', event);
    if (!event.defaultPrevented) this.exited = true;
  });
  readonly exit = vi.fn();
  readonly enableSandbox = vi.fn();
  setName(name: string): void {
    this.name = name;
  }
  getName(): string {
    return this.name;
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? os.tmpdir();
  }
  getVersion(): string {
    return '0.1.0-test';
  }
}

/** The fake `app`. */
export const app = new FakeApp();

type Listener = (event: FakeEvent, ...args: unknown[]) => unknown;

/** The fake `ipcMain`, with helpers that play the renderer's part. */
export const ipcMain = {
  handlers: new Map<string, Listener>(),
  listeners: new Map<string, Listener>(),
  handle(channel: string, handler: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  on(channel: string, listener: Listener): void {
    this.listeners.set(channel, listener);
  },
  /** What `ipcRenderer.invoke(channel, argument)` from `event`'s sender resolves to. */
  async invoke(channel: string, event: FakeEvent, argument?: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, argument);
  },
  /** What `ipcRenderer.sendSync(channel)` from `event`'s sender returns. */
  sendSync(channel: string, event: FakeEvent): unknown {
    this.listeners.get(channel)?.(event);
    return event.returnValue;
  },
};

type HeadersListener = (
  details: { url: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;

/** The fake `session`: the default one, and the in-memory ones of `fromPartition` (in {@link session.partitions}). */
export const session = {
  partitions: new Map<string, FakeSession>(),
  fromPartition(partition: string): FakeSession {
    const existing = this.partitions.get(partition);
    if (existing) return existing;
    const made = new FakeSession(partition);
    this.partitions.set(partition, made);
    return made;
  },
  defaultSession: {
    permissionRequestHandler: undefined as
      | undefined
      | ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string; isMainFrame: boolean }) => void),
    permissionCheckHandler: undefined as
      | undefined
      | ((contents: unknown, permission: string, requestingOrigin: string, details: { isMainFrame: boolean }) => boolean),
    devicePermissionHandler: undefined as undefined | ((details: unknown) => boolean),
    setPermissionRequestHandler(handler: NonNullable<typeof this.permissionRequestHandler>) {
      this.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler: NonNullable<typeof this.permissionCheckHandler>) {
      this.permissionCheckHandler = handler;
    },
    setDevicePermissionHandler(handler: NonNullable<typeof this.devicePermissionHandler>) {
      this.devicePermissionHandler = handler;
    },
    webRequest: {
      headersReceived: undefined as HeadersListener | undefined,
      onHeadersReceived(listener: HeadersListener) {
        this.headersReceived = listener;
      },
    },
  },
};

type BeforeRequestListener = (details: { url: string }, callback: (response: { cancel?: boolean }) => void) => void;

/** A session made by `session.fromPartition`: its permission handlers, its request filter, its protocol handlers. */
export class FakeSession {
  permissionRequestHandler: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
  permissionCheckHandler: (() => boolean) | undefined;
  devicePermissionHandler: (() => boolean) | undefined;
  beforeRequest: BeforeRequestListener | undefined;
  readonly protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  readonly webRequest = {
    onBeforeRequest: (listener: BeforeRequestListener) => {
      this.beforeRequest = listener;
    },
  };
  readonly protocol = {
    handle: (scheme: string, handler: (request: Request) => Response | Promise<Response>) => {
      if (this.protocolHandlers.has(scheme)) throw new Error(`The scheme ${scheme} is already handled`);
      this.protocolHandlers.set(scheme, handler);
    },
  };
  constructor(readonly partition: string) {}
  setPermissionRequestHandler(handler: NonNullable<FakeSession['permissionRequestHandler']>): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: NonNullable<FakeSession['permissionCheckHandler']>): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: NonNullable<FakeSession['devicePermissionHandler']>): void {
    this.devicePermissionHandler = handler;
  }
  /** Whether the session lets a request for `url` go, as its `onBeforeRequest` listener answers (no listener: it goes). */
  allowsRequest(url: string): boolean {
    let cancel = false;
    this.beforeRequest?.({ url }, (response) => {
      cancel = response.cancel === true;
    });
    return !cancel;
  }
  /** What the session's protocol handler serves at `url`, as a page of the session would get it. */
  async serve(url: string): Promise<Response> {
    const handler = this.protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`No protocol handler for ${url}`);
    return handler(new Request(url));
  }
}

/** The fake `dialog`: a test sets what the save dialog answers. */
export const dialog = {
  showSaveDialog: vi.fn(async (..._args: unknown[]): Promise<{ canceled: boolean; filePath: string }> => ({ canceled: true, filePath: '' })),
  showMessageBoxSync: vi.fn((..._args: unknown[]) => 0),
  showErrorBox: vi.fn(),
};

/** The fake `shell`. */
export const shell = {
  openExternal: vi.fn(async (_url: string) => undefined),
  showItemInFolder: vi.fn(),
};

/** The fake `safeStorage`: a reversible transformation, not encryption. */
export const safeStorage = {
  isEncryptionAvailable: vi.fn(() => true),
  getSelectedStorageBackend: vi.fn((): string => 'gnome_libsecret'),
  encryptString: vi.fn((plain: string) => Buffer.from(`sealed:${plain}`)),
  decryptString: vi.fn((sealed: Buffer) => {
    const text = sealed.toString('utf8');
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return text.slice('sealed:'.length);
  }),
};

/** The fake `screen`: one 1920×1080 display unless a test says otherwise. */
export const screen = {
  getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]),
};

/** The fake `Menu`: a built menu is its template. */
export const Menu = {
  buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
  setApplicationMenu: vi.fn(),
};

/** A native notification; every one made is in {@link Notification.instances}. A test clicks it as the user would. */
export class Notification extends EventEmitter {
  static instances: Notification[] = [];
  static readonly isSupported = vi.fn(() => true);
  readonly show = vi.fn();
  constructor(readonly options: { title: string; body: string }) {
    super();
    Notification.instances.push(this);
  }
  /** Clicks it, as the user does. */
  click(): void {
    this.emit('click', new FakeEvent());
  }
}

/** Back to a fresh Electron: no listeners, handlers, windows, notifications or recorded calls. */
export function resetFakeElectron(): void {
  vi.resetAllMocks();
  app.removeAllListeners();
  app.name = 'electron';
  app.isPackaged = false;
  app.exited = false;
  app.paths.clear();
  ipcMain.handlers.clear();
  ipcMain.listeners.clear();
  BrowserWindow.instances = [];
  Notification.instances = [];
  Object.assign(session.defaultSession, { permissionRequestHandler: undefined, permissionCheckHandler: undefined, devicePermissionHandler: undefined });
  session.defaultSession.webRequest.headersReceived = undefined;
  session.partitions.clear();
}
