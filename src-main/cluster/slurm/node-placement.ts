// Where a rank started by srun sits on its node: the address its peer socket binds (the interface that routes
// to the orchestrator, so other nodes can reach it) and the GPU it is pinned to (SLURM_LOCALID-th pinnable GPU).
import { createSocket } from 'node:dgram';
import { discoverGpus, pinEnvironment, type GpuInfo } from '../gpus.js';
import { RANK_ENV, SLURM_RANK_ENV } from '../transport/rank-environment.js';

/** Overrides the address a rank's peer socket binds (a host name or IP of this node). */
export const PEER_HOST_ENV = 'DSMC_PEER_HOST';
/** Set to 0 to leave ranks unpinned (share the node's default adapter). */
export const PIN_ENV = 'DSMC_SLURM_PIN';

/** Host and port of a tcp:// address. */
export function tcpHostPort(address: string): { host: string; port: number } {
  const m = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d+)$/.exec(address);
  if (!m) throw new Error(`${RANK_ENV.orchestratorAddress}=${address} is not a tcp://HOST:PORT address: ranks on other nodes need tcp (the Slurm launcher sets it)`);
  return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

/** This node's address on the route to `host` (a UDP connect sends nothing; it only picks the interface). */
export function localAddressToward(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
    socket.once('error', (e) => {
      socket.close();
      reject(new Error(`no route from this node to the orchestrator at ${host} (${e.message}); set ${PEER_HOST_ENV} to this node's address`));
    });
    socket.connect(port, host, () => {
      const { address } = socket.address();
      socket.close();
      resolve(address);
    });
  });
}

/** The peer bind address: DSMC_PEER_BIND if set, else tcp on DSMC_PEER_HOST or the interface toward the orchestrator. */
export async function peerBindAddress(env: NodeJS.ProcessEnv): Promise<string> {
  const given = env[RANK_ENV.peerBindAddress];
  if (given) return given;
  const host = env[PEER_HOST_ENV] ?? await (async () => {
    const o = tcpHostPort(env[RANK_ENV.orchestratorAddress] ?? '');
    return localAddressToward(o.host, o.port);
  })();
  return `tcp://${host.includes(':') ? `[${host}]` : host}:*`;
}

/** The pinning of local rank `localId` among this node's GPUs: the environment to add and a line for the log. */
export function pinningFor(localId: number, gpus: GpuInfo[]): { env: Record<string, string>; note: string } {
  const pinnable = gpus.filter((g) => g.pci !== null);
  if (localId < pinnable.length) {
    const g = pinnable[localId];
    return { env: pinEnvironment(g.pci!), note: `pinned to GPU ${g.index} (${g.name}, ${g.pci}) as local rank ${localId}` };
  }
  return {
    env: {},
    note: `not pinned: local rank ${localId} but ${pinnable.length} pinnable GPU(s) on this node (${gpus.map((g) => g.name).join(', ') || 'none listed; is Mesa\'s device-select layer installed?'}); using the default adapter`,
  };
}

/** Everything a rank under srun adds to its environment before it starts: peer bind address and GPU pinning. */
export async function placeRank(env: NodeJS.ProcessEnv): Promise<{ env: Record<string, string>; notes: string[] }> {
  const out: Record<string, string> = { [RANK_ENV.peerBindAddress]: await peerBindAddress(env) };
  const notes = [`peer socket binds ${out[RANK_ENV.peerBindAddress]}`];
  const localId = Number(env[SLURM_RANK_ENV.localId] ?? '0');
  if (env[PIN_ENV] === '0') notes.push(`not pinned (${PIN_ENV}=0)`);
  else {
    const p = pinningFor(localId, discoverGpus());
    Object.assign(out, p.env);
    notes.push(p.note);
  }
  return { env: out, notes };
}
