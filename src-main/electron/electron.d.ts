// The few Electron APIs the glue uses, typed locally: Electron's binary cannot be downloaded on the development
// and CI machines, so the `electron` package is not a dependency. Delete this file when it becomes one.
declare module 'electron' {
  interface IpcMainInvokeEvent {
    sender: WebContents;
    senderFrame: { url: string } | null;
  }
  interface WebContents {
    id: number;
    send(channel: string, ...args: unknown[]): void;
    on(event: 'will-navigate', listener: (e: { preventDefault(): void }, url: string) => void): void;
    on(event: 'will-attach-webview', listener: (e: { preventDefault(): void }) => void): void;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void;
    isDestroyed(): boolean;
  }
  interface WebPreferences {
    preload?: string;
    contextIsolation?: boolean;
    sandbox?: boolean;
    nodeIntegration?: boolean;
    webSecurity?: boolean;
  }
  class BrowserWindow {
    constructor(options: { width?: number; height?: number; title?: string; icon?: string; show?: boolean; webPreferences?: WebPreferences });
    webContents: WebContents;
    loadFile(path: string): Promise<void>;
    on(event: 'closed', listener: () => void): void;
    isMinimized(): boolean;
    restore(): void;
    focus(): void;
  }
  interface OnHeadersReceivedDetails {
    url: string;
    responseHeaders?: Record<string, string[]>;
  }
  const app: {
    whenReady(): Promise<void>;
    on(event: 'window-all-closed' | 'before-quit' | 'second-instance', listener: () => void): void;
    on(event: 'web-contents-created', listener: (e: unknown, contents: WebContents) => void): void;
    quit(): void;
    exit(exitCode?: number): void;
    requestSingleInstanceLock(): boolean;
    getPath(name: 'userData'): string;
  };
  const ipcMain: {
    handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  };
  const dialog: {
    showSaveDialog(window: BrowserWindow, options: { defaultPath?: string; title?: string }): Promise<{ canceled: boolean; filePath?: string }>;
    showErrorBox(title: string, content: string): void;
  };
  const session: {
    defaultSession: {
      webRequest: {
        onBeforeRequest(listener: (details: { url: string }, callback: (r: { cancel?: boolean }) => void) => void): void;
        onHeadersReceived(listener: (details: OnHeadersReceivedDetails, callback: (r: { responseHeaders?: Record<string, string[]> }) => void) => void): void;
      };
      setPermissionRequestHandler(handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
    };
  };
  const contextBridge: {
    exposeInMainWorld(key: string, api: unknown): void;
  };
  interface IpcRendererEvent {
    sender: unknown;
  }
  const ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): void;
    removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): void;
  };
  export { app, BrowserWindow, contextBridge, dialog, ipcMain, ipcRenderer, session };
  export type { IpcMainInvokeEvent, WebContents, WebPreferences };
}
