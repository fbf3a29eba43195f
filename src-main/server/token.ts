// The access token of browser mode: random, printed in the URL, required on every HTTP and WebSocket request
// (as ?token= or as the cookie set from it), compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestUrl } from './request-url.js';

/** A new random token (192 bits, URL-safe). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Name of the cookie that carries the token for one server (the port keeps servers apart). */
export function tokenCookieName(port: number): string {
  return `dsmc-token-${port}`;
}

/** True when the two strings are equal (constant time over the expected length). */
function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: ?token= first, else the cookie. */
export function requestToken(req: IncomingMessage, cookieName: string): { fromQuery: string | undefined; fromCookie: string | undefined } {
  const fromQuery = requestUrl(req.url)?.searchParams.get('token') ?? undefined;
  const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim().split('='));
  const fromCookie = cookies.find(([k]) => k === cookieName)?.[1];
  return { fromQuery, fromCookie };
}

/** Whether a request is allowed, and whether it came with the token in its query (then the cookie is set). */
export function checkToken(req: IncomingMessage, token: string, cookieName: string): { ok: boolean; viaQuery: boolean } {
  const { fromQuery, fromCookie } = requestToken(req, cookieName);
  if (sameToken(fromQuery, token)) return { ok: true, viaQuery: true };
  return { ok: sameToken(fromCookie, token), viaQuery: false };
}
