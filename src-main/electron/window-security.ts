// The security settings of the app's window: isolated, sandboxed renderer without Node, a strict
// Content-Security-Policy on every response, no navigation away from the app, no new windows, no webviews,
// no permissions (camera, notifications, ...).
import type { WebContents, WebPreferences } from 'electron';

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

/** Adds the CSP header to every response (the page's meta tag repeats it for file://). */
export function withCsp(headers: Record<string, string[]> | undefined): Record<string, string[]> {
  return { ...(headers ?? {}), 'Content-Security-Policy': [APP_CSP] };
}
