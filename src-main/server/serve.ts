// Browser mode: one HTTP server on loopback (by default) that serves the built renderer and the contract
// over a WebSocket at /api; every request needs the random token printed in the URL.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { packageRoot } from '../services/install-paths.js';
import { StudioService } from '../services/studio-service.js';
import { requireRendererBuild, serveStatic } from './static-files.js';
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

/** Starts the server; resolves once it listens. */
export async function startServer(o: ServeOptions = {}): Promise<RunningServer> {
  const rendererDir = o.rendererDir ?? join(packageRoot(), 'out', 'renderer');
  requireRendererBuild(rendererDir);
  const host = o.host ?? '127.0.0.1';
  const token = o.token ?? newToken();
  const service = new StudioService({ dataDir: o.dataDir });
  const wss = contractSocketServer(service, (l) => service.onEvent(l));
  let cookie = '';
  const server: Server = createServer((req, res) => {
    const auth = checkToken(req, token, cookie);
    if (!auth.ok) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('401: this DSMC Studio server needs its access token: open the URL that `dsmc serve` printed (it ends in ?token=...)\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
    const headers: Record<string, string> = auth.viaQuery ? { 'Set-Cookie': `${cookie}=${token}; HttpOnly; SameSite=Strict; Path=/` } : {};
    serveStatic(rendererDir, new URL(req.url ?? '/', 'http://localhost').pathname, res, headers);
  });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/api') { refuseUpgrade(socket, '404 Not Found'); return; }
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
