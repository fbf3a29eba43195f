// A real `dsmc serve` process against hostile requests (issue 18, defects 1, 2 and 10): a malformed percent escape
// in the path, WebSocket protocol errors (a message over the size limit, a text frame of invalid UTF-8), and Host
// headers of another site (DNS rebinding). Each gets a 4xx or a closed socket; the process never exits and keeps
// answering. Needs the compiled out/ (npm test builds it first).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let child: ChildProcess;
let port = 0;
let token = '';
let exited: number | null | 'running' = 'running';

/** A raw GET with the given headers (Host included), resolving to status and body. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, setHost: !('host' in headers) }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the contract socket (Host and Origin as given); resolves when open, rejects with the HTTP refusal. */
function openSocket(headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`, { headers, origin: headers.origin ?? `http://127.0.0.1:${port}` });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Resolves with the close code of a socket. */
function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

/** The server is still there and serves its page. */
async function stillServing(): Promise<void> {
  expect(exited).toBe('running');
  expect((await rawGet(`/?token=${token}`)).status).toBe(200);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dsmc-serve-hostile-'));
  child = spawn(process.execPath, [join(ROOT, 'bin', 'dsmc.js'), 'serve', '--port', '0', '--data-dir', join(dir, 'data')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.on('exit', (code) => { exited = code; });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`dsmc serve exited before it printed its URL: ${out}`)));
  });
  const u = new URL(url);
  port = Number(u.port);
  token = u.searchParams.get('token')!;
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('dsmc serve against hostile requests', () => {
  it('answers a malformed percent escape in the path with 400 and goes on (defect 1)', async () => {
    const page = await rawGet(`/?token=${token}`);
    expect(page.status).toBe(200);
    for (const path of ['/%zz', '/assets/%E0%A4%A', '/%', '/a%00b']) {
      const r = await rawGet(`${path}?token=${token}`);
      expect(r.status, path).toBe(400);
      expect(r.body, path).not.toMatch(/\n\s+at /);
    }
    await stillServing();
  });

  it('closes a socket that breaks the WebSocket protocol and keeps the others (defect 2)', async () => {
    const other = await openSocket();
    // a message over the 4 MiB limit: closed with 1009 (message too big; 1006 when cut before the close frame)
    const big = await openSocket();
    const bigClosed = closed(big);
    big.send('x'.repeat(5 * 1024 * 1024));
    expect([1009, 1006]).toContain(await bigClosed);
    // a text frame of invalid UTF-8: closed with 1007 (or dropped)
    const bad = await openSocket();
    const badClosed = closed(bad);
    bad.send(Buffer.from([0xc3, 0x28, 0xff]), { binary: false });
    expect([1007, 1006]).toContain(await badClosed);
    // the other socket still gets answers
    const reply = await new Promise<{ ok: boolean }>((resolve) => {
      other.on('message', (d) => { const m = JSON.parse(d.toString()); if (m.type === 'reply' && m.id === 1) resolve(m); });
      other.send(JSON.stringify({ type: 'call', id: 1, method: 'listProjects', request: {} }));
    });
    expect(reply.ok).toBe(true);
    other.close();
    await stillServing();
  });

  it('serves only loopback Host names and the --host name: another site\'s name gets 421 (defect 10)', async () => {
    for (const host of ['evil.example', 'evil.example:80', `attacker.test:${port}`, '127.0.0.1.evil.example', '']) {
      const r = await rawGet(`/?token=${token}`, { host });
      expect(r.status, host).toBe(421);
      expect(r.body, host).toContain('answers only to localhost, 127.0.0.1, [::1]');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost']) {
      expect((await rawGet(`/?token=${token}`, { host })).status, host).toBe(200);
    }
    await expect(openSocket({ host: `evil.example:${port}`, origin: `http://evil.example:${port}` })).rejects.toThrow('HTTP 421');
    await stillServing();
  });
});
