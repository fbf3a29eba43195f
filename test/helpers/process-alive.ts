// Whether a process still runs. A process that exited but is not yet reaped (a zombie) does not count: a rank whose
// orchestrator was killed is re-parented to init, which on the CI machines reaps it only 1-2 s after it exited.
import { existsSync, readFileSync } from 'node:fs';

/** True while a process with this pid runs (one of another user counts; a zombie does not). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return !existsSync('/proc/self/stat'); // no /proc (not Linux): signalling it is all there is to ask
  }
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}
