// Electron main's start-up with `electron` replaced by a stand-in (electron-stand-in.ts): one instance at a time (a
// second launch quits, the first window comes to the front), a failure to start shown in a dialog and exit code 1,
// the services closed before quitting, and the session refusing every request but the app's own files and every
// permission.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTRACT_METHODS } from '../../src-main/common/contract/contract.js';
import { isAppRequest } from '../../src-main/electron/window-security.js';
import { packageRoot } from '../../src-main/services/install-paths.js';
import { resetStandIn, state } from './electron-stand-in.js';

vi.mock('electron', async () => (await import('./electron-stand-in.js')).electronModule());

const { launch } = await import('../../src-main/electron/main.js');
const RENDERER = join(packageRoot(), 'out', 'renderer');

/** A services stand-in that answers nothing and records whether it was closed. */
function services(log: string[] = []) {
  const s: Record<string, unknown> = { onEvent: () => () => {}, close: async () => { log.push('close'); } };
  for (const m of CONTRACT_METHODS) s[m] = async () => m;
  return s as never;
}

/** What the session's request filter answers for a URL. */
function cancelled(url: string): boolean | undefined {
  let answer: { cancel?: boolean } = {};
  state.requestHook!({ url }, (r) => { answer = r; });
  return answer.cancel;
}

beforeEach(() => resetStandIn());

describe('Electron start-up (electron stand-in)', () => {
  it('quits without a window or services when another instance holds the lock', async () => {
    state.singleInstance = false;
    const open = vi.fn(() => services());
    await expect(launch(open)).resolves.toBeNull();
    expect(state.quits).toBe(1);
    expect(open).not.toHaveBeenCalled();
    expect(state.windows).toHaveLength(0);
  });

  it('shows why it could not start and exits with 1 when the services fail to open', async () => {
    const failing = () => { throw new Error('run database /data/runs.sqlite is damaged: move it away and start again'); };
    await expect(launch(failing)).resolves.toBeNull();
    expect(state.errorBoxes).toHaveLength(1);
    expect(state.errorBoxes[0][0]).toBe('DSMC Studio could not start');
    expect(state.errorBoxes[0][1]).toContain('runs.sqlite is damaged: move it away');
    expect(state.exits).toEqual([1]);
    expect(state.windows).toHaveLength(0);
  });

  it('brings the window to the front on a second launch, and closes the services before quitting', async () => {
    const log: string[] = [];
    const win = await launch(() => services(log));
    expect(win).not.toBeNull();
    const fake = state.windows[0];
    fake.minimized = true;
    state.appListeners.get('second-instance')!();
    expect(fake.minimized).toBe(false);
    expect(fake.focused).toBe(1);
    expect(state.windows).toHaveLength(1);
    state.appListeners.get('window-all-closed')!();
    await vi.waitFor(() => expect(state.quits).toBe(1));
    expect(log).toEqual(['close']);
  });

  it('lets the page load only the built renderer\'s files, data: and blob: URLs', async () => {
    await launch(() => services());
    expect(cancelled(pathToFileURL(join(RENDERER, 'index.html')).href)).toBe(false);
    expect(cancelled(pathToFileURL(join(RENDERER, 'assets', 'index-abc.js')).href)).toBe(false);
    expect(cancelled('data:image/png;base64,AAAA')).toBe(false);
    expect(cancelled('blob:file:///0c6f-4a')).toBe(false);
    for (const url of ['https://example.com/x.js', 'http://127.0.0.1:8080/', 'ws://127.0.0.1:9000/', 'wss://evil.example/',
      pathToFileURL(join(packageRoot(), 'package.json')).href, pathToFileURL(RENDERER).href, 'file:///etc/passwd',
      `${pathToFileURL(RENDERER).href}/../../package.json`, 'file://fileserver/share/x.js', 'ftp://example.com/', 'not a url']) {
      expect(cancelled(url), url).toBe(true);
    }
  });

  it('refuses every permission request (camera, notifications, ...)', async () => {
    await launch(() => services());
    const answers: boolean[] = [];
    for (const p of ['media', 'notifications', 'geolocation']) state.permissionHandler!({}, p, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false]);
  });

  it('isAppRequest keeps a sibling folder named like the renderer out', () => {
    expect(isAppRequest(pathToFileURL(`${RENDERER}-evil/index.html`).href, RENDERER)).toBe(false);
    expect(isAppRequest(pathToFileURL(join(RENDERER, 'index.html')).href, RENDERER)).toBe(true);
    expect(isAppRequest(pathToFileURL(join(RENDERER, '..assets', 'a.js')).href, RENDERER)).toBe(true);
  });
});
