// Electron main's wiring with `electron` replaced by a stand-in (electron-stand-in.ts; Electron's binary cannot run on
// these machines): the window's security settings, navigation and new windows blocked, the CSP header, the IPC sender
// check, every contract method reaching the services through the one call channel, events forwarded, exports saved
// via a dialog. Start-up, single instance and the request filter: electron-startup.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_METHODS, type ContractMethod, type ContractRequest } from '../../src-main/common/contract/contract.js';
import type { RunEvent } from '../../src-main/common/contract/types.js';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-main/common/contract/wire.js';
import { electronModule, state } from './electron-stand-in.js';

type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>;

vi.mock('electron', async () => (await import('./electron-stand-in.js')).electronModule());

/** One valid request per contract method (the Record type makes a missing method a compile error). */
const SAMPLE_REQUESTS: { [K in ContractMethod]: ContractRequest<K> } = {
  listProjects: {}, createProject: { name: 'p' }, renameProject: { name: 'p', newName: 'q' }, archiveProject: { name: 'p', archived: true },
  listRuns: {}, getRun: { runId: 1 }, runParameters: { runIds: [1, 2] }, getFieldSlice: { runId: 1, field: 'n', axis: 'z' }, getSurface: { runId: 1 }, deleteRun: { runId: 1 },
  tagRun: { runId: 1, tag: 'x' }, setNotes: { runId: 1, notes: '' }, listPresets: {}, checkCase: { caseJson: {} }, uploadMesh: { name: 'm.stl', contentBase64: 'AAAA' }, listGpus: {}, listClusterProfiles: {},
  launchRun: { project: 'p', caseJson: {} }, cancelRun: { runId: 1 }, resumeRun: { runId: 1 }, setLiveView: { runId: 1, field: 'T', axis: 'y' }, getLiveRun: { runId: 1 }, compareRuns: { runIds: [1, 2] },
  compareFieldSlice: { runIds: [1, 2], field: 'T', axis: 'x' }, exportRun: { runId: 1, format: 'html' }, listStudies: {}, getScaling: { studyId: 1 },
  exportStudy: { studyId: 1, format: 'zip' },
  probeLine: { runId: 1, from: [0, 0.1, 0.1], to: [0.2, 0.1, 0.1] }, probePoint: { runId: 1, at: [0.1, 0.1, 0.1] },
};

/** A services stand-in that records each call and answers with the method name. */
function recordingServices() {
  const calls: [string, unknown][] = [];
  const listeners: ((e: RunEvent) => void)[] = [];
  const target: Record<string, unknown> = {
    onEvent: (l: (e: RunEvent) => void) => { listeners.push(l); return () => {}; },
    close: () => {},
  };
  for (const m of CONTRACT_METHODS) {
    target[m] = async (r: unknown) => {
      calls.push([m, r]);
      if (m === 'exportStudy') return { fileName: 'study-1-scaling-csv.zip', mimeType: 'application/zip', base64: Buffer.from('PK zip').toString('base64'), savedPath: null };
      return m === 'exportRun' ? { fileName: 'run-1-profile.html', mimeType: 'text/html', base64: Buffer.from('<html>report</html>').toString('base64'), savedPath: null } : m;
    };
  }
  return { services: target as never, calls, emit: (e: RunEvent) => listeners.forEach((l) => l(e)) };
}

const dir = mkdtempSync(join(tmpdir(), 'dsmc-electron-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Electron main (electron mocked)', async () => {
  const { startApp } = await import('../../src-main/electron/main.js');
  const rec = recordingServices();
  await startApp(() => rec.services);
  const win = state.windows[0];
  const handler = state.handlers.get(IPC_CALL_CHANNEL) as Handler;
  const appUrl = pathToFileURL((win as unknown as { loaded: string }).loaded).href;
  const trusted = { sender: { id: 7 }, senderFrame: { url: `${appUrl}#/projects` } };

  it('opens one window with contextIsolation and sandbox on, nodeIntegration off, and the CommonJS preload', () => {
    expect(state.windows).toHaveLength(1);
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(String(win.options.webPreferences!.preload)).toMatch(/electron[/\\]preload\.cjs$/);
    expect((win as unknown as { loaded: string }).loaded).toMatch(/out[/\\]renderer[/\\]index\.html$/);
  });

  it('blocks navigation away from the app, new windows and webviews', () => {
    const nav = win.webContents.listeners.get('will-navigate')!;
    let prevented = false;
    nav({ preventDefault: () => { prevented = true; } }, 'https://example.com/');
    expect(prevented).toBe(true);
    prevented = false;
    nav({ preventDefault: () => { prevented = true; } }, appUrl);
    expect(prevented).toBe(false);
    expect(win.webContents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    let webview = false;
    win.webContents.listeners.get('will-attach-webview')!({ preventDefault: () => { webview = true; } });
    expect(webview).toBe(true);
  });

  it('adds a strict Content-Security-Policy to every response', () => {
    let headers: Record<string, string[]> = {};
    state.headerHook!({ url: appUrl, responseHeaders: { 'X-A': ['1'] } }, (r) => { headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders; });
    expect(headers['X-A']).toEqual(['1']);
    expect(headers['Content-Security-Policy'][0]).toContain("script-src 'self'");
    expect(headers['Content-Security-Policy'][0]).toContain("connect-src 'none'");
  });

  it('wires every contract method through the one call channel to the services, validated', async () => {
    const saved = ['exportRun', 'exportStudy'];
    for (const m of CONTRACT_METHODS) {
      if (saved.includes(m)) continue;
      await expect(handler(trusted, m, SAMPLE_REQUESTS[m]), m).resolves.toBe(m);
    }
    expect(rec.calls.map(([m]) => m).sort()).toEqual(CONTRACT_METHODS.filter((m) => !saved.includes(m)).sort());
    // defaults of the schema are applied before the services see a request
    expect(rec.calls.find(([m]) => m === 'launchRun')![1]).toMatchObject({ ranks: 1 });
    // no decomposition asked for: the run takes the case's default (balance-plan.ts)
    expect((rec.calls.find(([m]) => m === 'launchRun')![1] as { decomposition?: string }).decomposition).toBeUndefined();
    // nor rebalancing: the run takes the default; a bad one is refused naming the field and the fix
    expect((rec.calls.find(([m]) => m === 'launchRun')![1] as { rebalance?: unknown }).rebalance).toBeUndefined();
    await expect(handler(trusted, 'launchRun', { project: 'p', caseJson: {}, rebalance: -5 })).rejects.toThrow('rebalance: a percentage of 0 or more, e.g. 20');
    await expect(handler(trusted, 'launchRun', { project: 'p', caseJson: {}, rebalance: 'sometimes' })).rejects.toThrow('rebalance: expected a percentage (e.g. 20) or off');
    await expect(handler(trusted, 'getRun', { runId: 0 })).rejects.toThrow('getRun: runId');
  });

  it('refuses calls from another window or another page', async () => {
    await expect(handler({ sender: { id: 8 }, senderFrame: trusted.senderFrame }, 'listProjects', {})).rejects.toThrow('only the DSMC Studio window');
    await expect(handler({ sender: { id: 7 }, senderFrame: { url: 'https://evil.example/' } }, 'listProjects', {})).rejects.toThrow('refused a call from https://evil.example/');
  });

  it('saves exports through the save dialog (temp file then rename)', async () => {
    state.saveTo = join(dir, 'report.html');
    const r = await handler(trusted, 'exportRun', { runId: 1, format: 'html' });
    expect(r).toMatchObject({ savedPath: state.saveTo, base64: '' });
    expect(readFileSync(state.saveTo, 'utf8')).toBe('<html>report</html>');
  });

  it('saves a scaling study\'s export through the save dialog too', async () => {
    state.saveTo = join(dir, 'study.zip');
    const r = await handler(trusted, 'exportStudy', { studyId: 1, format: 'zip' });
    expect(r).toMatchObject({ savedPath: state.saveTo, base64: '', fileName: 'study-1-scaling-csv.zip' });
    expect(readFileSync(state.saveTo, 'utf8')).toBe('PK zip');
  });

  it('forwards live run events to the window', () => {
    const event: RunEvent = { kind: 'ended', runId: 3, status: 'completed', reason: null };
    rec.emit(event);
    expect(win.webContents.sent).toContainEqual([IPC_EVENT_CHANNEL, event]);
  });

  it('the built preload (CommonJS, requires only electron) exposes only window.dsmc, whose call and onEvent use the contract channels', async () => {
    // run the built CommonJS preload the way Electron's sandbox does: a wrapper with a require that knows only electron
    const source = readFileSync(join(import.meta.dirname, '..', '..', 'out', 'src-main', 'electron', 'preload.cjs'), 'utf8');
    const sandboxRequire = (name: string) => { if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`); return electronModule().default; };
    new Function('require', 'exports', 'module', source)(sandboxRequire, {}, { exports: {} });
    expect([...state.exposed.keys()]).toEqual(['dsmc']);
    const bridge = state.exposed.get('dsmc') as { call(m: string, r: unknown): Promise<unknown>; onEvent(l: (e: unknown) => void): () => void };
    expect(Object.keys(bridge).sort()).toEqual(['call', 'onEvent']);
    await expect(bridge.call('listRuns', { project: 'p' })).resolves.toBe('answer');
    expect(state.invoked).toEqual([[IPC_CALL_CHANNEL, 'listRuns', { project: 'p' }]]);
    const got: unknown[] = [];
    const off = bridge.onEvent((e) => got.push(e));
    state.rendererListeners.get(IPC_EVENT_CHANNEL)!({}, { kind: 'ended', runId: 1 });
    expect(got).toEqual([{ kind: 'ended', runId: 1 }]);
    off();
    expect(state.rendererListeners.has(IPC_EVENT_CHANNEL)).toBe(false);
  });
});

describe('Electron glue: no way out to the system shell', () => {
  it('never calls shell.openExternal or shell.openPath (no untrusted URL can reach the OS)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src-main/electron/', import.meta.url);
    const sources = readdirSync(dir).filter((f) => /\.(c?ts)$/.test(f));
    expect(sources.length).toBeGreaterThan(1);
    for (const f of sources) expect(readFileSync(new URL(f, dir), 'utf8'), f).not.toMatch(/openExternal|openPath|shell\./);
  });
});
