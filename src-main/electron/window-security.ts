// The security settings of the app's window: isolated, sandboxed renderer without Node, a strict
// Content-Security-Policy on every response, no request but for the app's own files, no navigation away from the
// app, no new windows, no webviews, no permissions (camera, notifications, ...).
import type { WebContents, WebPreferences } from 'electron';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The policy of the app's pages: own scripts only, no remote connections (IPC carries the contract). */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** webPreferences of the window: contextIsolation and sandbox on, nodeIntegration off, the preload bridge. */
export function secureWebPreferences(preload: string): WebPreferences {
  return { preload, contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true };
}

/** Blocks navigation to any URL but the app's page, every new window and every webview. */
export function hardenContents(contents: WebContents, appUrl: string): void {
  contents.on('will-navigate', (e, url) => {
    if (url !== appUrl) e.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (e) => e.preventDefault());
}

/** Adds the CSP header to every response (the page's own meta policy is browser mode's, which allows its WebSocket;
 *  in the window isAppRequest keeps the page off the network either way). */
export function withCsp(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  return { ...(headers ?? {}), 'Content-Security-Policy': [APP_CSP] };
}

/** URL schemes the page may use besides its own files: inline images and figures, saved blobs, the developer tools. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'devtools:']);

/** True for a request the app's page may make: a file inside the built renderer folder, or data:/blob:/devtools:.
 *  Everything else (http, https, ws, other files) is cancelled, so a page script can neither reach the network
 *  nor read the disk, whether or not Chromium applies the CSP header to a file:// page (the page's own meta policy
 *  allows the WebSocket of browser mode). */
export function isAppRequest(url: string, rendererDir: string): boolean {
  let path: string;
  try {
    const parsed = new URL(url);
    if (LOCAL_SCHEMES.has(parsed.protocol)) return true;
    if (parsed.protocol !== 'file:') return false;
    // throws for a file URL naming another host (file://server/share/...), which is refused too
    path = fileURLToPath(parsed);
  } catch {
    return false;
  }
  const rel = relative(rendererDir, path);
  return rel !== '' && rel.split(sep)[0] !== '..' && !isAbsolute(rel);
}
