// Serves the built renderer (out/renderer) with a strict Content-Security-Policy; unknown paths get index.html
// (the router uses hash history, so only the root is ever navigated to), and nothing outside the folder is served.
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

/** Content types of the files vite builds. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2',
};

/** The policy of every page: own scripts and styles only, WebSocket back to this host, no framing. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Throws unless the renderer has been built into `dir`. */
export function requireRendererBuild(dir: string): void {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`the renderer is not built (${join(dir, 'index.html')} is missing); run npm run build:renderer (or npm run build)`);
  }
}

/** A URL path with its percent escapes decoded, or null when an escape is malformed (`%zz`) or decodes to a NUL. */
export function decodedPath(urlPath: string): string | null {
  try {
    const p = decodeURIComponent(urlPath);
    return p.includes('\0') ? null : p;
  } catch {
    return null;
  }
}

/** The file under `root` for a URL path, or null when it would leave the folder or does not exist. */
function fileFor(root: string, urlPath: string): string | null {
  const decoded = decodedPath(urlPath);
  if (decoded === null) return null;
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  const abs = resolve(root, rel);
  if (abs !== resolve(root) && !abs.startsWith(resolve(root) + sep)) return null;
  return existsSync(abs) && statSync(abs).isFile() ? abs : null;
}

/** Writes the file for `urlPath` (index.html for the root and unknown paths) with security headers. */
export function serveStatic(root: string, urlPath: string, res: ServerResponse, extraHeaders: Record<string, string> = {}): void {
  const file = (urlPath !== '/' && fileFor(root, urlPath)) || join(root, 'index.html');
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...extraHeaders,
  });
  res.end(readFileSync(file));
}
