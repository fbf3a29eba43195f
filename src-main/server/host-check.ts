// The Host header check of browser mode: a page from another site that rebinds its DNS name to 127.0.0.1 sends
// its own name as Host, so only loopback names (localhost, 127.0.0.1, [::1], any port) and the name the server
// was started with (`--host`) are served; the token alone is not the only defence.

/** The host part of a Host header (without the port; IPv6 in brackets kept), lower case; null when malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(h);
  return m ? m[1] : null;
}

/** The Host names a server bound to `bindHost` answers to. */
export function allowedHosts(bindHost: string): Set<string> {
  const bound = bindHost.toLowerCase();
  return new Set(['localhost', '127.0.0.1', '[::1]', bound.includes(':') && !bound.startsWith('[') ? `[${bound}]` : bound]);
}

/** Why a request's Host header is refused (null when it is accepted). */
export function hostRefusal(header: string | undefined, allowed: Set<string>): string | null {
  const name = hostName(header);
  if (name !== null && allowed.has(name)) return null;
  return `421: this DSMC Studio server answers only to ${[...allowed].join(', ')} (the Host header said ${JSON.stringify(header ?? '')}); ` +
    'open the URL that `dsmc serve` printed, or start it with --host NAME for another name\n';
}
