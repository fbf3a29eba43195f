// Fuzzing a real `dsmc serve` (issue 18): random HTTP methods, paths (percent escapes, dot segments, unicode, NUL,
// long), headers (Host, Origin, Cookie, Content-Length) and bodies; random WebSocket frames (text and binary,
// invalid UTF-8, random JSON) and random contract calls (every method, random arguments). Loopback only, fixed seed,
// bounded counts. The server must never exit, never answer 5xx with a stack, never reply with a stack, and nothing
// invalid may be saved: no run is created, and every project in the database has a name the contract accepts.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONTRACT_METHODS, CONTRACT_REQUESTS } from '../../src-main/common/contract/contract.js';
import { DATABASE_FILE } from '../../src-main/store/data-dir.js';
import { rawRequest, startServeProcess, type ServeProcess } from './serve-process.js';

/** Fixed seed (DSMC_FUZZ_SEED picks another, to explore by hand). */
const SEED = Number(process.env.DSMC_FUZZ_SEED ?? 20261125);
let serve: ServeProcess;
let cookie = '';

/** A stack trace in a text: "    at fn (file:line)" lines or a Node internal path. */
const STACK = /\n\s+at \S|node:internal|\.ts:\d+:\d+|\.js:\d+:\d+/;

/** Opens the contract socket with the token; resolves when open. */
function openSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${serve.port}/api?token=${serve.token}`, { origin: `http://127.0.0.1:${serve.port}` });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Sends a frame and waits for the server's reply, a close, or 300 ms of silence; returns what came back. */
function exchange(ws: WebSocket, data: string | Buffer, binary: boolean): Promise<{ closed: boolean; replies: string[] }> {
  return new Promise((resolve) => {
    const replies: string[] = [];
    const done = (closed: boolean) => { ws.off('message', onMessage); ws.off('close', onClose); clearTimeout(timer); resolve({ closed, replies }); };
    const onMessage = (d: WebSocket.RawData) => {
      const text = d.toString();
      replies.push(text);
      try { if ((JSON.parse(text) as { type: string }).type === 'reply') done(false); } catch { done(false); }
    };
    const onClose = () => done(true);
    const timer = setTimeout(() => done(false), 300);
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.send(data, { binary });
  });
}

/** Path segments that attack a static file server. */
const segment = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2E%2e%2f', '%zz', '%', '%0', '%00', '%c0%af', '%ff', '\\', '//', 'index.html', 'assets', 'api', '~', '%25'),
  fc.string({ maxLength: 12 }).map((x) => encodeURI(x)),
  fc.string({ unit: 'binary', maxLength: 8 }).map((x) => encodeURIComponent(x)),
);
const path = fc.array(segment, { maxLength: 6 }).map((a) => `/${a.join('/')}`);
const host = fc.oneof(
  fc.constant(''), fc.constantFrom('127.0.0.1', 'localhost', '[::1]', 'evil.example', '127.0.0.1.evil.example', 'LOCALHOST', '127.0.0.1:1', '[::1', 'a b'),
  fc.domain(), fc.ipV4(),
);

describe('dsmc serve under fuzzing', () => {
  beforeAll(async () => {
    serve = await startServeProcess();
    const page = await rawRequest(serve.port, 'GET', `/?token=${serve.token}`);
    expect(page.status).toBe(200);
    cookie = `dsmc-token-${serve.port}=${serve.token}`;
  }, 60_000);

  afterAll(() => { if (serve && serve.exit() !== 'running') console.log('dsmc serve stderr:', serve.stderr()); serve?.stop(); });

  it('random HTTP requests: never a 5xx with a stack, never an exit', async () => {
    let count = 0;
    await fc.assert(fc.asyncProperty(
      fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'), path,
      fc.record({ token: fc.constantFrom('valid', 'none', 'wrong'), host: fc.option(host), origin: fc.option(fc.webUrl()), cookie: fc.boolean() }),
      fc.option(fc.uint8Array({ maxLength: 2048 })),
      async (method, p, h, body) => {
        count += 1;
        const headers: Record<string, string> = {};
        if (h.host !== null) headers.host = h.host.includes(':') || h.host === '' ? h.host : `${h.host}:${serve.port}`;
        if (h.origin !== null) headers.origin = h.origin;
        if (h.cookie) headers.cookie = cookie;
        const q = h.token === 'valid' ? `?token=${serve.token}` : h.token === 'wrong' ? '?token=x' : '';
        let r;
        try {
          r = await rawRequest(serve.port, method, `${p}${q}`, headers, body ? Buffer.from(body) : undefined);
        } catch (e) {
          // Node's client refuses some header values itself (e.g. a space in Host): not the server's doing
          if ((e as NodeJS.ErrnoException).code === 'ERR_INVALID_CHAR') return;
          throw e;
        }
        expect(r.status, `${method} ${p}`).toBeLessThan(500);
        expect(r.body).not.toMatch(STACK);
        expect(serve.exit()).toBe('running');
      },
    ), { seed: SEED, numRuns: 2000 });
    expect(count).toBe(2000);
  }, 120_000);

  it('random WebSocket frames: bad ones close their socket or get an error reply; the server stays up', async () => {
    let ws = await openSocket();
    let closes = 0, count = 0;
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 200 }).map((x) => ({ data: x as string | Buffer, binary: false })),
        fc.json().map((x) => ({ data: x as string | Buffer, binary: false })),
        fc.uint8Array({ maxLength: 64 }).map((x) => ({ data: Buffer.from(x) as string | Buffer, binary: false })),
        fc.uint8Array({ maxLength: 64 }).map((x) => ({ data: Buffer.from(x) as string | Buffer, binary: true })),
      ),
      async (frame) => {
        count += 1;
        const got = await exchange(ws, frame.data, frame.binary);
        for (const text of got.replies) expect(text).not.toMatch(STACK);
        if (got.closed) {
          closes += 1;
          ws = await openSocket();
        }
        expect(serve.exit()).toBe('running');
      },
    ), { seed: SEED, numRuns: 1000 });
    ws.close();
    expect(count).toBe(1000);
    // binary frames are refused by closing (1003): some sockets were closed and reopened
    expect(closes).toBeGreaterThan(0);
  }, 120_000);

  it('random contract calls: every method with random arguments gets a reply without a stack, and nothing invalid is saved', async () => {
    const ws = await openSocket();
    let count = 0, refused = 0;
    const methods = [...CONTRACT_METHODS, 'rm', '__proto__', 'constructor', 'toString'];
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...methods),
      fc.oneof(
        fc.anything({ maxDepth: 3 }),
        fc.record({ name: fc.string({ maxLength: 80 }) }),
        fc.record({ runId: fc.oneof(fc.integer(), fc.double(), fc.string()), field: fc.string(), axis: fc.string(), index: fc.integer() }),
        fc.record({ project: fc.string({ maxLength: 20 }), caseJson: fc.anything({ maxDepth: 3 }), ranks: fc.integer({ min: -2, max: 100 }) }),
      ),
      fc.oneof(fc.integer({ min: 0, max: 1e6 }), fc.string({ maxLength: 5 })),
      async (method, request, id) => {
        count += 1;
        const got = await exchange(ws, JSON.stringify({ type: 'call', id, method, request }), false);
        expect(got.closed).toBe(false);
        for (const text of got.replies) {
          expect(text).not.toMatch(STACK);
          const m = JSON.parse(text) as { type: string; ok?: boolean };
          if (m.type === 'reply' && m.ok === false) refused += 1;
        }
        expect(serve.exit()).toBe('running');
      },
    ), { seed: SEED, numRuns: 1500 });
    ws.close();
    expect(count).toBe(1500);
    expect(refused).toBeGreaterThan(1200);
    // nothing invalid saved: no run came of random cases, and every stored project name is one the contract accepts
    const db = new Database(join(serve.dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    try {
      expect((db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(0);
      for (const { name } of db.prepare('SELECT name FROM projects').all() as { name: string }[]) {
        expect(CONTRACT_REQUESTS.createProject.safeParse({ name }).success, JSON.stringify(name)).toBe(true);
      }
    } finally {
      db.close();
    }
  }, 180_000);
});
