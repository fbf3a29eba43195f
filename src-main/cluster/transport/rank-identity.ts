// The zeromq routing id of a rank's DEALER socket: 'rank-N'. The orchestrator's ROUTER knows ranks by it.

/** Routing id of rank `rank`. */
export function rankIdentity(rank: number): string {
  return `rank-${rank}`;
}

/** The rank a routing id names, or null when it is not 'rank-N'. */
export function rankOfIdentity(identity: string): number | null {
  const m = /^rank-(\d+)$/.exec(identity);
  return m ? Number(m[1]) : null;
}
