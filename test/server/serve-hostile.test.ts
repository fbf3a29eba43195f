// A real `dsmc serve` process against hostile requests (issue 18, defects 1, 2 and 10): a malformed percent escape
// in the path, WebSocket protocol errors (a message over the size limit, a text frame of invalid UTF-8), and Host
// headers of another site (DNS rebinding). Each gets a 4xx or a closed socket; the process never exits and keeps
// answering. Needs the compiled out/ (npm test builds it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawRequest, startServeProcess, type ServeProcess } from './serve-process.js';

let serve: ServeProcess;
let port = 0;
let token = '';

/** A raw GET with the given headers (Host included), resolving to status and body. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return rawRequest(port, 'GET', path, headers);
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
  expect(serve.exit()).toBe('running');
  expect((await rawGet(`/?token=${token}`)).status).toBe(200);
}

beforeAll(async () => {
  serve = await startServeProcess();
  ({ port, token } = serve);
}, 60_000);

afterAll(() => serve?.stop());

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

  it('answers a request target new URL cannot parse (`///?token=x`, found by the fuzzer) and goes on', async () => {
    for (const path of ['///?token=x', '//?token=' + token, '///']) {
      const r = await rawGet(path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
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
