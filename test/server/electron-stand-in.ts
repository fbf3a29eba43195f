// A stand-in for the `electron` module (its binary cannot run on the development and CI machines): records what
// the main process and the preload do with app, BrowserWindow, ipcMain, session, dialog, contextBridge and
// ipcRenderer, so the tests can check the window's settings, the hooks and the IPC wiring. Use it with
// `vi.mock('electron', async () => (await import('./electron-stand-in.js')).electronModule())`.

type Listener = (...a: unknown[]) => void;

/** One fake webContents: its id, sent messages, listeners and window-open handler. */
export interface FakeWebContents {
  id: number;
  sent: unknown[][];
  listeners: Map<string, Listener>;
  openHandler: ((d: { url: string }) => unknown) | null;
  send(...a: unknown[]): void;
  on(e: string, l: Listener): void;
  setWindowOpenHandler(h: (d: { url: string }) => unknown): void;
  isDestroyed(): boolean;
}

/** Everything the stand-in recorded, and the answers it gives (singleInstance, saveTo). */
export const state = {
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
  windows: [] as FakeWindow[],
  appListeners: new Map<string, Listener>(),
  headerHook: null as null | ((details: unknown, cb: (r: unknown) => void) => void),
  requestHook: null as null | ((details: { url: string }, cb: (r: { cancel?: boolean }) => void) => void),
  permissionHandler: null as null | ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void),
  saveTo: '',
  singleInstance: true,
  quits: 0,
  exits: [] as number[],
  errorBoxes: [] as [string, string][],
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  rendererListeners: new Map<string, Listener>(),
};

/** A fake BrowserWindow: keeps its options, the loaded file, focus calls and its webContents. */
export class FakeWindow {
  webContents: FakeWebContents;
  loaded = '';
  minimized = false;
  focused = 0;
  listeners = new Map<string, Listener>();
  constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
    const wc: FakeWebContents = {
      id: 7, sent: [], listeners: new Map(), openHandler: null,
      send(...a) { wc.sent.push(a); },
      on(e, l) { wc.listeners.set(e, l); },
      setWindowOpenHandler(h) { wc.openHandler = h; },
      isDestroyed: () => false,
    };
    this.webContents = wc;
    state.windows.push(this);
    state.appListeners.get('web-contents-created')?.({}, wc);
  }
  async loadFile(p: string) { this.loaded = p; }
  on(e: string, l: Listener) { this.listeners.set(e, l); }
  isMinimized() { return this.minimized; }
  restore() { this.minimized = false; }
  focus() { this.focused++; }
}

/** The fake module's exports (also as `default`, as an ES import of a CommonJS module sees them). */
export function electronModule() {
  const electron = {
    app: {
      whenReady: async () => {},
      on: (e: string, l: Listener) => state.appListeners.set(e, l),
      quit: () => { state.quits++; },
      exit: (code: number) => { state.exits.push(code); },
      requestSingleInstanceLock: () => state.singleInstance,
      getPath: () => '/tmp',
    },
    BrowserWindow: FakeWindow,
    ipcMain: { handle: (channel: string, l: (event: unknown, ...args: unknown[]) => Promise<unknown>) => state.handlers.set(channel, l) },
    contextBridge: { exposeInMainWorld: (k: string, api: unknown) => state.exposed.set(k, api) },
    ipcRenderer: {
      invoke: async (...a: unknown[]) => { state.invoked.push(a); return 'answer'; },
      on: (channel: string, l: Listener) => state.rendererListeners.set(channel, l),
      removeListener: (channel: string) => state.rendererListeners.delete(channel),
    },
    dialog: {
      showSaveDialog: async () => ({ canceled: false, filePath: state.saveTo }),
      showErrorBox: (title: string, content: string) => { state.errorBoxes.push([title, content]); },
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (l: typeof state.headerHook) => { state.headerHook = l; },
          onBeforeRequest: (l: typeof state.requestHook) => { state.requestHook = l; },
        },
        setPermissionRequestHandler: (h: typeof state.permissionHandler) => { state.permissionHandler = h; },
      },
    },
  };
  return { ...electron, default: electron };
}

/** Forgets everything recorded and restores the default answers (one instance, no save path). */
export function resetStandIn(): void {
  for (const m of [state.handlers, state.appListeners, state.exposed, state.rendererListeners]) m.clear();
  for (const a of [state.windows, state.exits, state.errorBoxes, state.invoked]) a.length = 0;
  Object.assign(state, { headerHook: null, requestHook: null, permissionHandler: null, saveTo: '', singleInstance: true, quits: 0 });
}
