// Same-host fast path of the peer links (orchestrator side): a private folder (mode 0700, under /dev/shm, else the
// system temp folder) in which the ranks of a run on this host exchange migrant payloads through files
// (peer-files.ts). The orchestrator creates it, names it in `configure`, and removes it when the run ends, or at
// process exit if the run never got to close it. A killed orchestrator (SIGKILL, power loss of a container) cannot:
// its folder is named after its pid, and the next run on the host removes the folders of this user's dead pids.
// DSMC_PEER_SHM=0 turns the fast path off (payloads through zeromq).
import { accessSync, constants, readdirSync, rmSync, statSync } from 'node:fs';
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

/** Folder names: the prefix, the orchestrator's pid, a dash, then mkdtemp's random suffix. */
const FOLDER_PREFIX = 'dsmc-peer-';
const FOLDER_NAME = /^dsmc-peer-(\d+)-[A-Za-z0-9]{6}$/;

/** True when a process with this pid exists (one of another user counts: EPERM). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the peer folders under `root` that belong to this user and whose orchestrator pid is gone (a killed run's
 * leftovers); returns their paths. A folder of a live pid, of another user or with a foreign name is left alone.
 */
export function removeStaleFolders(root: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const m = FOLDER_NAME.exec(name);
    if (!m || pidAlive(Number(m[1]))) continue;
    const path = join(root, name);
    try {
      const st = statSync(path);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

export class PeerFolder {
  /** Removes the folder if this process exits without close() (an uncaught error, process.exit). */
  private readonly removeAtExit = () => rmSync(this.path, { recursive: true, force: true });

  private constructor(readonly path: string) {
    process.once('exit', this.removeAtExit);
  }

  /**
   * Creates the run's private peer folder under the first writable root (default /dev/shm, then the system temp
   * folder), after removing that root's folders of killed orchestrators; null when DSMC_PEER_SHM=0 or no root takes
   * it (onWarning says why; migrants then go through zeromq).
   */
  static async create(options: { env?: NodeJS.ProcessEnv; roots?: string[]; onWarning?: (text: string) => void } = {}): Promise<PeerFolder | null> {
    if (!peerShmEnabled(options.env)) return null;
    const failures: string[] = [];
    for (const root of options.roots ?? ['/dev/shm', tmpdir()]) {
      if (!writableFolder(root)) {
        failures.push(`${root}: missing or not writable`);
        continue;
      }
      removeStaleFolders(root);
      try {
        const path = await mkdtemp(join(root, `${FOLDER_PREFIX}${process.pid}-`));
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
