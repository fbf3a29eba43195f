// Electron main: thin glue. Opens the services (StudioService over the run database), one secure window on
// the built renderer, wires the contract over IPC (sender checked), forwards live run events, and saves
// exports through a save dialog. One instance at a time (a second launch focuses the window); a start-up
// failure is shown in a dialog naming the fix. Business logic lives in src-main/services.
import { app, BrowserWindow, dialog, ipcMain, session, type IpcMainInvokeEvent } from 'electron';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DsmcService, ValidRequest } from '../common/contract/contract.js';
import type { ExportedFile, RunEvent } from '../common/contract/types.js';
import { IPC_EVENT_CHANNEL } from '../common/contract/wire.js';
import { saveExportFile } from '../services/exports.js';
import { packageRoot } from '../services/install-paths.js';
import { wireContract } from './ipc-host.js';
import { hardenContents, isAppRequest, secureWebPreferences, withCsp } from './window-security.js';

/** The services as main uses them: the contract plus live events and shutdown. */
export interface MainServices extends DsmcService {
  onEvent(listener: (e: RunEvent) => void): () => void;
  close(): Promise<void> | void;
}

/** The built renderer's folder and page, and the compiled preload; the error names the build when the page is missing. */
function appFiles(): { rendererDir: string; index: string; preload: string } {
  const rendererDir = join(packageRoot(), 'out', 'renderer');
  const index = join(rendererDir, 'index.html');
  if (!existsSync(index)) throw new Error(`${index} is missing: the app is not built; run \`npm run build\` (npm start builds it first)`);
  return { rendererDir, index, preload: join(dirname(fileURLToPath(import.meta.url)), 'preload.cjs') };
}

/** The service with exportRun and exportStudy going through Electron's save dialog instead of a download. */
function withSaveDialog(service: MainServices, window: () => BrowserWindow | null): DsmcService {
  /** Makes the export, asks where to save it and saves it there (checked, temp file then rename). */
  const saving = <R>(make: (r: R) => Promise<ExportedFile>) => async (r: R): Promise<ExportedFile> => {
    const file = await make(r);
    const win = window();
    if (!win) throw new Error('export not saved: the app window is closed');
    const choice = await dialog.showSaveDialog(win, { title: 'Save export', defaultPath: file.fileName });
    if (choice.canceled || !choice.filePath) throw new Error('export not saved: the save dialog was cancelled; click the export button again to choose a file');
    await saveExportFile(choice.filePath, Buffer.from(file.base64, 'base64'));
    return { ...file, base64: '', savedPath: choice.filePath };
  };
  const wrapped: Record<string, unknown> = {
    exportRun: saving((r: ValidRequest<'exportRun'>) => service.exportRun(r)),
    exportStudy: saving((r: ValidRequest<'exportStudy'>) => service.exportStudy(r)),
  };
  return new Proxy(service, { get: (t, k, rcv) => (typeof k === 'string' && Object.hasOwn(wrapped, k) ? wrapped[k] : Reflect.get(t, k, rcv)) }) as DsmcService;
}

/** Starts the app: CSP on every response, the window, the IPC wiring and event forwarding. */
export async function startApp(openServices: () => MainServices | Promise<MainServices>): Promise<BrowserWindow> {
  await app.whenReady();
  const files = appFiles();
  const services = await openServices();
  const appUrl = pathToFileURL(files.index).href;
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAppRequest(details.url, files.rendererDir) }));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => callback({ responseHeaders: withCsp(details.responseHeaders) }));
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, appUrl));
  let win: BrowserWindow | null = new BrowserWindow({
    width: 1400, height: 950, title: 'DSMC Studio', icon: join(packageRoot(), 'resources', 'icons', 'icon.svg'),
    webPreferences: secureWebPreferences(files.preload),
  });
  const trusted = (e: IpcMainInvokeEvent) => win !== null && e.sender.id === win.webContents.id && e.senderFrame?.url.split('#')[0] === appUrl;
  wireContract(ipcMain, withSaveDialog(services, () => win), trusted);
  const unsubscribe = services.onEvent((event) => {
    if (win && !win.webContents.isDestroyed()) win.webContents.send(IPC_EVENT_CHANNEL, event);
  });
  win.on('closed', () => { win = null; });
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => {
    unsubscribe();
    void Promise.resolve(services.close()).finally(() => app.quit());
  });
  await win.loadFile(files.index);
  return win;
}

/** Starts the app once per user: a second launch quits and focuses the first one's window (both would write the
 *  same run database); a failure to start is shown in a dialog with its message, then the app exits with 1. */
export async function launch(openServices: () => MainServices | Promise<MainServices>): Promise<BrowserWindow | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  try {
    return await startApp(openServices);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    dialog.showErrorBox('DSMC Studio could not start', `${message}\n\nThe command line tool (npx dsmc) and browser mode (npx dsmc serve) use the same data folder.`);
    app.exit(1);
    return null;
  }
}

/** The services of the installed product: StudioService over the run database in the user's data folder. */
async function studioServices(): Promise<MainServices> {
  const { StudioService } = await import('../services/studio-service.js');
  return new StudioService();
}

// Started by Electron (`npm start`, packaged app); importing the module elsewhere (tests) starts nothing.
if (process.versions.electron) void launch(studioServices);
