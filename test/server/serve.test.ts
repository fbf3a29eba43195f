// `dsmc serve`'s host: the token on every HTTP request and WebSocket upgrade, loopback binding, static files
// confined to the renderer folder with a CSP, and the contract over the WebSocket (validated requests, replies).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../src-main/server/serve.js';

let dir: string;
let server: RunningServer;
let base: string;

/** A raw GET (fetch normalises `..` away), resolving to status, headers and body. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves when open, rejects with the refusal. */
function openSocket(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Sends one call and resolves with its reply. */
function call(ws: WebSocket, id: number, method: string, req: unknown): Promise<{ ok: boolean; result?: unknown; error?: string }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const m = JSON.parse(data.toString()) as { type: string; id: number };
      if (m.type === 'reply' && m.id === id) { ws.off('message', onMessage); resolve(m as never); }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'call', id, method, request: req }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-serve-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  server = await startServer({ port: 0, dataDir: join(dir, 'data'), rendererDir: join(dir, 'renderer') });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dsmc serve', () => {
  it('binds to loopback and prints a URL carrying a long random token', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32}$`));
  });

  it('answers 401 without the token or with a wrong one, naming what to open', async () => {
    for (const path of ['/', '/assets/app.js', '/?token=wrong']) {
      const r = await rawGet(path);
      expect(r.status, path).toBe(401);
      expect(r.body).toContain('?token=');
    }
  });

  it('serves the page with the token, sets an HttpOnly SameSite cookie for the assets, and sends a CSP', async () => {
    const page = await rawGet(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const asset = await rawGet('/assets/app.js', { cookie: cookie.split(';')[0] });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const r = await rawGet(`${path}${path.includes('?') ? '&' : '?'}token=${server.token}`);
      expect(r.body, path).not.toContain('outside the renderer');
    }
  });

  it('refuses WebSocket upgrades without the token, with a wrong one, or from another origin', async () => {
    await expect(openSocket(`ws://127.0.0.1:${server.port}/api`)).rejects.toThrow('HTTP 401');
    await expect(openSocket(`ws://127.0.0.1:${server.port}/api?token=${'0'.repeat(server.token.length)}`)).rejects.toThrow('HTTP 401');
    await expect(openSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, 'http://evil.example')).rejects.toThrow('HTTP 403');
  });

  it('carries contract calls over the WebSocket, validating each request', async () => {
    const ws = await openSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, base);
    try {
      const created = await call(ws, 1, 'createProject', { name: 'over-the-wire' });
      expect(created).toMatchObject({ ok: true, result: { name: 'over-the-wire', runCount: 0 } });
      const list = await call(ws, 2, 'listProjects', {});
      expect((list.result as { name: string }[]).map((p) => p.name)).toEqual(['over-the-wire']);
      const bad = await call(ws, 3, 'getRun', { runId: 'one' });
      expect(bad.ok).toBe(false);
      expect(bad.error).toContain('getRun: runId');
      const missing = await call(ws, 4, 'getRun', { runId: 99 });
      expect(missing.error).toContain('run 99 not found');
      const unknown = await call(ws, 5, 'rm', {});
      expect(unknown.error).toContain('unknown contract method "rm"');
    } finally {
      ws.close();
    }
  });
});
