// Electron main started the way Electron starts it (`npm start`, the packaged app): importing the module with
// process.versions.electron set launches the app on StudioService (replaced here by a recording stand-in, as is
// `electron`): one window on the built renderer, the contract wired, the services closed when the window closes.
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_METHODS } from '../../src-main/common/contract/contract.js';
import { IPC_CALL_CHANNEL } from '../../src-main/common/contract/wire.js';
import { state } from './electron-stand-in.js';

vi.mock('electron', async () => (await import('./electron-stand-in.js')).electronModule());

const opened = vi.hoisted(() => ({ services: 0, closed: 0 }));
vi.mock('../../src-main/services/studio-service.js', () => ({
  StudioService: class {
    constructor() {
      opened.services++;
      for (const m of CONTRACT_METHODS) (this as Record<string, unknown>)[m] = async () => `${m} from StudioService`;
    }
    onEvent() { return () => {}; }
    close() { opened.closed++; }
  },
}));

Object.defineProperty(process.versions, 'electron', { value: '39.2.0', configurable: true });
afterAll(() => { delete (process.versions as Record<string, string | undefined>).electron; });

describe('Electron main started by Electron (stand-in)', () => {
  it('opens one window on StudioService when Electron loads the module, and closes it with the last window', async () => {
    await import('../../src-main/electron/main.js');
    await vi.waitFor(() => expect(state.windows).toHaveLength(1));
    expect(opened.services).toBe(1);
    expect(state.windows[0].loaded).toMatch(/out[/\\]renderer[/\\]index\.html$/);
    const trusted = { sender: { id: 7 }, senderFrame: { url: pathToFileURL(state.windows[0].loaded).href } };
    await expect(state.handlers.get(IPC_CALL_CHANNEL)!(trusted, 'listProjects', {})).resolves.toBe('listProjects from StudioService');
    state.appListeners.get('window-all-closed')!();
    await vi.waitFor(() => expect(state.quits).toBe(1));
    expect(opened.closed).toBe(1);
  });
});
