// Dawn's harmless start-up notices. On adapters that report huge descriptor limits (lavapipe: 1,000,000 dynamic
// buffers), Dawn caps them at its own maximum (16) while it enumerates the adapters and says so on stderr, once per
// process: "Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic
// offset allocation limit." The solver binds no dynamic buffers, so nothing changes. Dawn writes them with fprintf
// from native code (webgpu 0.6.2 offers no logging hook): the adapter request runs with stderr's descriptor pointed
// at a temporary file whose other lines are printed afterwards (a terminal or a pipe on Linux), and where a process
// reads another's stderr (rank processes, the app's run child) these lines are dropped.
import { closeSync, fstatSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True for one of Dawn's "artificially reduced ... dynamic offset allocation limit" lines. */
export function isHarmlessDawnNotice(line: string): boolean {
  return /^Warning: maxDynamic(Uniform|Storage)BuffersPerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.\s*$/.test(line);
}

/**
 * Runs `open` (the adapter request, where Dawn prints the notices) with file descriptor 2 pointed at a temporary file,
 * then puts stderr back and prints what was written there meanwhile, less the harmless notices. Only on Linux and only
 * when stderr is a terminal or a pipe (a regular file may share its offset with stdout, a socket cannot be reopened);
 * DSMC_DEBUG=1 leaves stderr alone. Anything that fails on the way leaves stderr as it was.
 */
export async function withDawnNoticesMuted<T>(open: () => Promise<T>): Promise<T> {
  const saved = process.env.DSMC_DEBUG ? -1 : savedStderr();
  if (saved < 0) return open();
  const path = join(tmpdir(), `dsmc-stderr-${process.pid}-${Date.now()}.txt`);
  let swapped = false;
  try {
    closeSync(2);
    const fd = openSync(path, 'w+', 0o600);
    swapped = fd === 2;
    if (!swapped) closeSync(fd);
  } catch {
    swapped = false;
  }
  // fd 2 is either the temp file or, when that failed, must be the terminal again before anything else
  if (!swapped) {
    restoreStderr(saved);
    return open();
  }
  let done = false;
  // puts stderr back and shows what else was written meanwhile; also when the process exits during the request
  const finish = () => {
    if (done) return;
    done = true;
    process.removeListener('exit', finish);
    restoreStderr(saved);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
      unlinkSync(path);
    } catch {
      // nothing to show
    }
    const kept = text.split('\n').filter((l) => l !== '' && !isHarmlessDawnNotice(l));
    if (kept.length > 0) process.stderr.write(kept.join('\n') + '\n');
  };
  process.once('exit', finish);
  try {
    return await open();
  } finally {
    finish();
  }
}

/** A second descriptor of stderr when it is a terminal or a pipe on Linux, else -1. */
function savedStderr(): number {
  if (process.platform !== 'linux') return -1;
  try {
    const st = fstatSync(2);
    if (!st.isCharacterDevice() && !st.isFIFO()) return -1;
    return openSync('/proc/self/fd/2', 'w');
  } catch {
    return -1;
  }
}

/** Points fd 2 back at the saved descriptor's file (the lowest free descriptor is 2 once it is closed). */
function restoreStderr(saved: number): void {
  try {
    closeSync(2);
  } catch {
    // already closed
  }
  const fd = openSync(`/proc/self/fd/${saved}`, 'w');
  closeSync(saved);
  if (fd !== 2) throw new Error(`could not put stderr back (got descriptor ${fd}); run with DSMC_DEBUG=1 to leave it alone`);
}
