// A Slurm job's state as the orchestrator follows it: read with scontrol (sacct once scontrol has forgotten the
// job), and classified into waiting, running or ended (completed, cancelled or failed with Slurm's reason).
import { slurmCommand, SlurmCommandError, type SlurmCommandOptions } from './slurm-commands.js';

/** One look at a job. */
export interface JobState {
  jobId: string;
  /** Slurm's state: PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ... */
  state: string;
  /** Slurm's reason (why it waits, or why it ended), 'None' when there is none. */
  reason: string;
  /** Nodes of the job ('' while pending). */
  nodes: string;
  /** Exit code and signal of the batch script ('3:0'), '' when unknown. */
  exitCode: string;
}

/** Where a job is in its life. */
export type JobPhase = 'waiting' | 'running' | 'ended';

const WAITING = new Set(['PENDING', 'CONFIGURING', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD', 'SUSPENDED', 'STOPPED', 'RESIZING']);
const RUNNING = new Set(['RUNNING', 'COMPLETING', 'SIGNALING', 'STAGE_OUT']);

/** The phase of a state ('CANCELLED by 0' counts as CANCELLED). */
export function phaseOf(state: string): JobPhase {
  const s = state.split(/\s/)[0];
  if (WAITING.has(s)) return 'waiting';
  if (RUNNING.has(s)) return 'running';
  return 'ended';
}

/** Parses one line of `scontrol show job -o`; null when it is not a job line. */
export function parseScontrolJob(line: string): JobState | null {
  const get = (key: string) => new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(line)?.[1];
  const jobId = get('JobId');
  const state = get('JobState');
  if (!jobId || !state) return null;
  const nodes = get('NodeList');
  return { jobId, state, reason: get('Reason') ?? 'None', nodes: nodes && nodes !== '(null)' ? nodes : '', exitCode: get('ExitCode') ?? '' };
}

/** Parses `sacct -X -n -P -o JobID,State,Reason,NodeList,ExitCode` output; null when the job is not listed. */
export function parseSacctJob(text: string, jobId: string): JobState | null {
  for (const line of text.split('\n')) {
    const [id, state, reason, nodes, exitCode] = line.split('|');
    if (id === jobId && state) return { jobId, state: state.split(' ')[0], reason: reason || 'None', nodes: nodes === 'None assigned' ? '' : nodes ?? '', exitCode: exitCode ?? '' };
  }
  return null;
}

/** The job's current state: scontrol first, sacct when scontrol no longer knows it; null when neither does. */
export async function readJobState(jobId: string, o: SlurmCommandOptions = {}): Promise<JobState | null> {
  try {
    const out = await slurmCommand('scontrol', ['show', 'job', '-o', jobId], o);
    const state = parseScontrolJob(out.split('\n')[0]);
    if (state) return state;
  } catch (e) {
    if (!(e instanceof SlurmCommandError) || !/Invalid job id/i.test(e.message)) throw e;
  }
  try {
    const out = await slurmCommand('sacct', ['-X', '-n', '-P', '-j', jobId, '-o', 'JobID,State,Reason,NodeList,ExitCode'], o);
    return parseSacctJob(out, jobId);
  } catch {
    return null; // accounting disabled or sacct missing: nothing more to learn
  }
}

/** One sentence for a job that ended without completing: its state, Slurm's reason and what to do. */
export function describeJobEnd(s: JobState, profileHint: string): string {
  const base = `Slurm job ${s.jobId} ended ${s.state}${s.reason && s.reason !== 'None' ? ` (${s.reason})` : ''}${s.exitCode ? `, exit code ${s.exitCode}` : ''}`;
  const fix: Record<string, string> = {
    TIMEOUT: `it reached its time limit: raise timeLimit in ${profileHint} or run fewer steps`,
    NODE_FAIL: 'a node of the job failed: run again (Slurm drains the failed node)',
    OUT_OF_MEMORY: 'a rank ran out of host memory: use more nodes or fewer particles per rank',
    PREEMPTED: 'a higher-priority job took its nodes: run again, or use a partition without preemption',
    BOOT_FAIL: 'a node could not boot: run again or ask the cluster\'s administrators',
    DEADLINE: 'it missed its deadline: remove --deadline from the profile\'s sbatchOptions',
    CANCELLED: 'someone cancelled it outside dsmc (scancel) or an administrator did: run again',
    FAILED: 'the job script or a rank failed: see the rank\'s last lines and the job output',
  };
  const state = s.state.split(/\s/)[0];
  return `${base}; ${fix[state] ?? 'see the job output'}`;
}
