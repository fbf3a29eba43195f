// Browser mode: one HTTP server on loopback (by default) that serves the built renderer and the contract
// over a WebSocket at /api; every request needs the random token printed in the URL.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { packageRoot } from '../services/install-paths.js';
import { StudioService } from '../services/studio-service.js';
import { allowedHosts, hostRefusal } from './host-check.js';
import { requestUrl } from './request-url.js';
import { decodedPath, requireRendererBuild, serveStatic } from './static-files.js';
import { checkToken, newToken, tokenCookieName } from './token.js';
import { contractSocketServer } from './ws-host.js';

/** Options of `dsmc serve`. */
export interface ServeOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  rendererDir?: string;
}

/** A running server: the URL to open (with the token) and how to stop it. */
export interface RunningServer {
  url: string;
  port: number;
  token: string;
  service: StudioService;
  close(): Promise<void>;
}

/** Refuses an upgrade without the token (or from another site) with a plain HTTP status. */
function refuseUpgrade(socket: Duplex, status: string): void {
  socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  socket.destroy();
}

/** True when a browser's Origin header (if any) names this server's host. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host}`;
}

/** The path of a request URL, or null when the URL cannot be parsed. */
function pathOf(url: string | undefined): string | null {
  return requestUrl(url)?.pathname ?? null;
}

/** Starts the server; resolves once it listens. */
export async function startServer(o: ServeOptions = {}): Promise<RunningServer> {
  const rendererDir = o.rendererDir ?? join(packageRoot(), 'out', 'renderer');
  requireRendererBuild(rendererDir);
  const host = o.host ?? '127.0.0.1';
  const token = o.token ?? newToken();
  // files a case names from the browser are confined to the data folder and this folder (issue 25 item 16)
  const service = new StudioService({ dataDir: o.dataDir, confineFiles: true });
  const wss = contractSocketServer(service, (l) => service.onEvent(l));
  let cookie = '';
  const hosts = allowedHosts(host);
  const server: Server = createServer((req, res) => {
    const refusal = hostRefusal(req.headers.host, hosts);
    if (refusal) {
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(refusal);
      return;
    }
    const auth = checkToken(req, token, cookie);
    if (!auth.ok) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('401: this DSMC Studio server needs its access token: open the URL that `dsmc serve` printed (it ends in ?token=...)\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
    const headers: Record<string, string> = auth.viaQuery ? { 'Set-Cookie': `${cookie}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};
    const path = pathOf(req.url);
    if (path === null || decodedPath(path) === null) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('400: the URL path has a malformed percent escape (write %25 for a literal %)\n');
      return;
    }
    try {
      serveStatic(rendererDir, path, res, headers);
    } catch (e) {
      // a file that vanished or cannot be read: an answer without a stack, and the server goes on
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`500: could not read the page (${(e as NodeJS.ErrnoException).code ?? 'error'}); rebuild the renderer (npm run build:renderer)\n`);
    }
  });
  // a malformed request line or headers: answered 400 by Node, the socket closed, the server goes on
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy()); // a peer that resets mid-handshake must not take the server down
    if (hostRefusal(req.headers.host, hosts)) { refuseUpgrade(socket, '421 Misdirected Request'); return; }
    if (pathOf(req.url) !== '/api') { refuseUpgrade(socket, '404 Not Found'); return; }
    if (!checkToken(req, token, cookie).ok) { refuseUpgrade(socket, '401 Unauthorized'); return; }
    if (!sameOrigin(req)) { refuseUpgrade(socket, '403 Forbidden'); return; }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE'
        ? new Error(`port ${o.port} on ${host} is in use; pick another with --port (or --port 0 for any free port)`) : e));
      server.listen(o.port ?? 0, host, () => resolve());
    });
  } catch (e) {
    await service.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  cookie = tokenCookieName(port);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`, port, token, service,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((r) => server.close(() => r()));
      await service.close();
    },
  };
}
