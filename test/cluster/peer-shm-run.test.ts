// `dsmc run --ranks 2` on this host moves migrants through files in a private peer folder under /dev/shm (seen
// through the rank processes' open files in /proc): the folder is 0700 with one file per link and slot, it is
// gone when the run ends however it ends (completed, a rank killed, Ctrl-C), and DSMC_PEER_SHM=0 (zeromq frames,
// no folder) gives the same fields hash and step statistics.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src-main/store/run-store.js';

const BIN = new URL('../../bin/dsmc.js', import.meta.url).pathname;
const DATA_DIR = mkdtempSync(join(tmpdir(), 'dsmc-peer-shm-'));
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const CASE = ['collide-box', '--set', 'grid.cells=[16,16,16]', '--set', 'run.stepsPerSubmit=5', '--set', 'sampling.enabled=true', '--set', 'sampling.start=5',
  ...['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'].flatMap((f) => ['--set', `boundaries.${f}={"type":"periodic"}`])];

/** Pids of the rank processes a dsmc process started. */
function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map((l) => Number(l.trim())).filter((p) => p > 0);
  } catch {
    return [];
  }
}

/** The peer folder one of `pids` has a file of open, if any. */
function peerFolderOf(pids: number[]): string | null {
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (/\/dsmc-peer-[^/]+\/\d+-\d+-[01]$/.test(target)) return dirname(target);
    }
  }
  return null;
}

/** What a run showed while going and how it ended. */
interface Watched {
  code: number | null;
  stdout: string;
  stderr: string;
  folder: string | null;
  folderMode: number | null;
  files: string[];
  ranks: number[];
}

/**
 * Runs dsmc with `args` and `env`, watching its ranks' open files; `act(ranks, pid)` is called once the peer
 * folder is seen (or, with `untilStep`, once the run recorded that step), e.g. to kill a rank.
 */
async function watchRun(args: string[], env: NodeJS.ProcessEnv, act?: (ranks: number[], orchestrator: number) => void, untilStep = 0, project = 'peer-shm'): Promise<Watched> {
  const child = spawn(process.execPath, [BIN, 'run', ...args, '--project', project, '--data-dir', DATA_DIR, '--no-progress'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  let running = true;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { running = false; resolve(code); }));
  const seen: Watched = { code: null, stdout: '', stderr: '', folder: null, folderMode: null, files: [], ranks: [] };
  let acted = false;
  const deadline = Date.now() + 120_000;
  while (running && Date.now() < deadline) {
    const ranks = childPids(child.pid!);
    if (ranks.length > seen.ranks.length) seen.ranks = ranks;
    const folder = peerFolderOf(ranks);
    if (folder !== null && seen.folder === null) {
      seen.folder = folder;
      try {
        seen.folderMode = statSync(folder).mode & 0o777;
        seen.files = readdirSync(folder).sort();
      } catch {
        // the run ended between the two looks
      }
    }
    if (act && !acted && (untilStep > 0 ? lastStep(project) >= untilStep : folder !== null)) {
      acted = true;
      act(ranks, child.pid!);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (running) child.kill('SIGKILL');
  seen.code = await exited;
  seen.stdout = stdout;
  seen.stderr = stderr;
  return seen;
}

/** The last step the newest run of `project` recorded. */
function lastStep(project: string): number {
  const store = RunStore.open({ dataDir: DATA_DIR });
  try {
    return store.listRuns({ project })[0]?.lastStep ?? 0;
  } finally {
    store.close();
  }
}

/** The step statistics a run recorded. */
function recordedSteps(runId: number) {
  const store = RunStore.open({ dataDir: DATA_DIR });
  try {
    return store.getSteps(runId);
  } finally {
    store.close();
  }
}

/** The --json summary printed last. */
function summaryOf(w: Watched): Record<string, unknown> {
  if (w.code !== 0) throw new Error(`dsmc exited ${w.code}: ${w.stderr}`);
  const lines = w.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}

describe.skipIf(!existsSync('/proc/self/fd'))('dsmc run --ranks 2: migrants through the private peer folder', () => {
  it('uses a 0700 folder of link files, removes it at the end, and DSMC_PEER_SHM=0 gives the same results through zeromq', async () => {
    const fast = await watchRun([...CASE, '--set', 'run.steps=600', '--ranks', '2', '--json'], {});
    const fastSummary = summaryOf(fast);
    expect(fast.folder, 'a rank had a peer file open').not.toBeNull();
    expect(fast.folder!.startsWith(existsSync('/dev/shm') ? '/dev/shm/dsmc-peer-' : tmpdir())).toBe(true);
    expect(fast.folderMode).toBe(0o700);
    for (const f of fast.files) expect(f).toMatch(/^[01]-[01]-[01]$/);
    expect(existsSync(fast.folder!), 'the folder is gone after the run').toBe(false);

    const slow = await watchRun([...CASE, '--set', 'run.steps=600', '--ranks', '2', '--json'], { DSMC_PEER_SHM: '0' });
    const slowSummary = summaryOf(slow);
    expect(slow.folder, 'no rank had a peer file open').toBeNull();
    expect(slow.ranks.length).toBe(2);
    expect(slowSummary.fieldsSha256).toBe(fastSummary.fieldsSha256);
    expect(slowSummary.particles).toBe(fastSummary.particles);
    expect(recordedSteps(slowSummary.runId as number)).toEqual(recordedSteps(fastSummary.runId as number));
  });

  it('a rank killed mid-run: the run fails and the folder is removed', async () => {
    const run = await watchRun([...CASE, '--set', 'run.steps=1000000', '--ranks', '2'], {}, (ranks) => process.kill(ranks[1], 'SIGKILL'), 20, 'peer-shm-killed');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/rank 1/);
    expect(run.folder).not.toBeNull();
    expect(existsSync(run.folder!)).toBe(false);
  });

  it('Ctrl-C: the run is cancelled and the folder is removed', async () => {
    const run = await watchRun([...CASE, '--set', 'run.steps=1000000', '--ranks', '2'], {}, (_ranks, pid) => process.kill(pid, 'SIGINT'), 20, 'peer-shm-cancelled');
    expect(run.code).not.toBe(0);
    expect(run.folder).not.toBeNull();
    expect(existsSync(run.folder!)).toBe(false);
  });
});
