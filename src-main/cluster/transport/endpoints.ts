// Where the sockets of one run listen: ipc:// paths in a per-run temporary folder (one host, the default), or
// tcp://host:port so the same code can span machines. The folder is removed by close().
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransportError } from './errors.js';

/** ipc on this host, or tcp on `host` (port 0: the system picks a free port). */
export type TransportSpec = { kind: 'ipc' } | { kind: 'tcp'; host: string; port: number };

/** Longest ipc:// socket path Linux and macOS accept (sun_path minus the terminating zero). */
const MAX_IPC_PATH = 103;

/** Reads 'ipc', 'HOST:PORT' or 'tcp://HOST:PORT' (PORT 0 or '*': pick a free port). */
export function parseTransportSpec(text: string): TransportSpec {
  const t = text.trim();
  if (t === 'ipc' || t === 'ipc://') return { kind: 'ipc' };
  const m = /^(?:tcp:\/\/)?(\[[^\]]+\]|[^:/\s]+):(\d+|\*)$/.exec(t);
  if (!m) {
    throw new TransportError(`transport '${text}' is not understood: use 'ipc' (one host) or HOST:PORT, e.g. 127.0.0.1:0 (tcp, 0 picks a free port)`);
  }
  const port = m[2] === '*' ? 0 : Number(m[2]);
  if (port > 65535) throw new TransportError(`transport '${text}': port ${port} is over 65535`);
  return { kind: 'tcp', host: m[1], port };
}

/** The bind addresses of one run; ipc plans own a temporary folder until close(). */
export class EndpointPlan {
  /** Removes the folder if this process exits without close() (an uncaught error, process.exit). */
  private readonly removeAtExit = () => {
    if (this.folder !== null) rmSync(this.folder, { recursive: true, force: true });
  };

  private constructor(
    readonly spec: TransportSpec,
    /** The ipc folder (null for tcp). */
    readonly folder: string | null,
  ) {
    if (folder !== null) process.once('exit', this.removeAtExit);
  }

  /** A plan for `spec`; for ipc, creates the per-run folder under the system temp folder. */
  static async create(spec: TransportSpec = { kind: 'ipc' }): Promise<EndpointPlan> {
    if (spec.kind === 'tcp') return new EndpointPlan(spec, null);
    const folder = await mkdtemp(join(tmpdir(), 'dsmc-ipc-'));
    const plan = new EndpointPlan(spec, folder);
    try {
      plan.ipcAddress('rank-99999-peer'); // fails early, with the fix, if TMPDIR makes the paths too long
    } catch (e) {
      await plan.close();
      throw e;
    }
    return plan;
  }

  /** Where the orchestrator's ROUTER binds. */
  orchestratorBindAddress(): string {
    if (this.spec.kind === 'ipc') return this.ipcAddress('orchestrator');
    return tcpAddress(this.spec.host, this.spec.port);
  }

  /** Where rank `rank` binds its peer PULL socket (tcp: a free port on the same host name). */
  peerBindAddress(rank: number): string {
    if (this.spec.kind === 'ipc') return this.ipcAddress(`rank-${rank}-peer`);
    return tcpAddress(this.spec.host, 0);
  }

  /** Removes the ipc folder and the socket files in it (tcp: nothing to do). */
  async close(): Promise<void> {
    if (this.folder === null) return;
    process.removeListener('exit', this.removeAtExit);
    await rm(this.folder, { recursive: true, force: true });
  }

  /** ipc:// address of a socket file in the run folder. */
  private ipcAddress(name: string): string {
    const path = join(this.folder as string, name);
    if (Buffer.byteLength(path) > MAX_IPC_PATH) {
      throw new TransportError(`ipc socket path ${path} is longer than ${MAX_IPC_PATH} bytes: set TMPDIR to a shorter folder (e.g. /tmp)`);
    }
    return `ipc://${path}`;
  }
}

/** tcp:// bind address; port 0 becomes '*', zeromq's "any free port". */
function tcpAddress(host: string, port: number): string {
  return `tcp://${host}:${port === 0 ? '*' : port}`;
}

/** An address another process can connect to, from a socket's bound endpoint (0.0.0.0 / :: become this host's name). */
export function connectableAddress(boundEndpoint: string): string {
  return boundEndpoint.replace(/^tcp:\/\/(0\.0\.0\.0|\[::\]|\*)(?=:)/, `tcp://${hostname()}`);
}
