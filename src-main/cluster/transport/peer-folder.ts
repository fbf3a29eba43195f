// Same-host fast path of the peer links (orchestrator side): a private folder (mode 0700, under /dev/shm, else the
// system temp folder) in which the ranks of a run on this host exchange migrant payloads through files
// (peer-files.ts). The orchestrator creates it, names it in `configure`, and removes it when the run ends, or at
// process exit if the run never got to close it. DSMC_PEER_SHM=0 turns the fast path off (payloads through zeromq).
import { accessSync, constants, rmSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable that turns the same-host fast path off when set to 0. */
export const PEER_SHM_ENV = 'DSMC_PEER_SHM';

/** True unless DSMC_PEER_SHM is 0 (or off, false, no). */
export function peerShmEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(0|off|false|no)$/i.test((env[PEER_SHM_ENV] ?? '').trim());
}

/** True when `dir` is a directory this process may create files in. */
function writableFolder(dir: string): boolean {
  try {
    if (!statSync(dir).isDirectory()) return false;
    accessSync(dir, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export class PeerFolder {
  /** Removes the folder if this process exits without close() (an uncaught error, process.exit). */
  private readonly removeAtExit = () => rmSync(this.path, { recursive: true, force: true });

  private constructor(readonly path: string) {
    process.once('exit', this.removeAtExit);
  }

  /**
   * Creates the run's private peer folder under the first writable root (default /dev/shm, then the system temp
   * folder); null when DSMC_PEER_SHM=0 or no root takes it (onWarning says why; migrants then go through zeromq).
   */
  static async create(options: { env?: NodeJS.ProcessEnv; roots?: string[]; onWarning?: (text: string) => void } = {}): Promise<PeerFolder | null> {
    if (!peerShmEnabled(options.env)) return null;
    const failures: string[] = [];
    for (const root of options.roots ?? ['/dev/shm', tmpdir()]) {
      if (!writableFolder(root)) {
        failures.push(`${root}: missing or not writable`);
        continue;
      }
      try {
        const path = await mkdtemp(join(root, 'dsmc-peer-'));
        await chmod(path, 0o700); // mkdtemp makes it 0700 already; said again so no umask or platform can widen it
        return new PeerFolder(path);
      } catch (e) {
        failures.push(`${root}: ${(e as Error).message}`);
      }
    }
    options.onWarning?.(`the same-host fast path for migrants is off, no folder for it could be made (${failures.join('; ')}); ` +
      `migrants go through zeromq (slower): make /dev/shm writable, or set ${PEER_SHM_ENV}=0 to silence this`);
    return null;
  }

  /** Removes the folder and every file in it (ranks still holding a file open keep it until they close it). */
  async close(): Promise<void> {
    process.removeListener('exit', this.removeAtExit);
    await rm(this.path, { recursive: true, force: true });
  }
}
