// The two ways a run's ranks reach Slurm, behind one interface the rank group follows: a batch job submitted
// with sbatch (followed with scontrol/sacct, output read from its file, cancelled with scancel), or one srun
// step inside an allocation the user already holds (SLURM_JOB_ID set; followed as a child process).
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileTail } from './job-output.js';
import { readJobState, type JobState } from './job-state.js';
import type { SlurmJobSpec } from './job-spec.js';
import { outputPattern, sbatchScript, srunArguments } from './sbatch-script.js';
import { sbatch, scancel, type SlurmCommandOptions } from './slurm-commands.js';

/** What the rank group needs from a job. */
export interface JobDriver {
  /** 'batch' (sbatch) or 'step' (srun inside an allocation). */
  readonly kind: 'batch' | 'step';
  /** Submits or starts the job; resolves with its id (the allocation's id for a step). */
  start(): Promise<string>;
  /** The job's state now (null: Slurm no longer knows it). */
  poll(): Promise<JobState | null>;
  /** Output written since the last call. */
  readOutput(): Promise<string>;
  /** Cancels the job (scancel, or SIGTERM to srun). */
  cancel(): Promise<void>;
}

/** A batch job: the script is written to spec.workDir, submitted, and followed by polling. */
export class BatchJobDriver implements JobDriver {
  readonly kind = 'batch' as const;
  private jobId: string | null = null;
  private tail: FileTail | null = null;

  constructor(private readonly spec: SlurmJobSpec, private readonly commands: SlurmCommandOptions) {}

  /** Writes the sbatch script (kept next to the output for the record) and submits it. */
  async start(): Promise<string> {
    const script = join(this.spec.workDir, `${this.spec.name}.sbatch`);
    await writeFile(script, sbatchScript(this.spec), { mode: 0o755 });
    this.jobId = await sbatch(script, this.commands);
    this.tail = new FileTail(outputPattern(this.spec).replace('%j', this.jobId));
    return this.jobId;
  }

  /** scontrol (sacct later) on the job. */
  poll(): Promise<JobState | null> {
    return readJobState(this.jobId!, this.commands);
  }

  /** New text of the job's output file. */
  readOutput(): Promise<string> {
    return this.tail ? this.tail.read() : Promise.resolve('');
  }

  /** scancel. */
  async cancel(): Promise<void> {
    if (this.jobId) await scancel(this.jobId, this.commands);
  }
}

/** One srun step in the current allocation (SLURM_JOB_ID set): a child process whose output is piped here. */
export class StepJobDriver implements JobDriver {
  readonly kind = 'step' as const;
  private child: ChildProcess | null = null;
  private output = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(private readonly spec: SlurmJobSpec, private readonly commands: SlurmCommandOptions, private readonly allocation: string) {}

  /** Starts srun with the rank environment. */
  start(): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn('srun', srunArguments(this.spec), {
        cwd: this.spec.productPath, env: { ...(this.commands.env ?? process.env), ...this.spec.env }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      child.stdout!.setEncoding('utf8').on('data', (t: string) => (this.output += t));
      child.stderr!.setEncoding('utf8').on('data', (t: string) => (this.output += t));
      child.once('error', (e) => reject(new Error(`srun could not be started (${e.message}): run inside a Slurm allocation with Slurm's commands on PATH`)));
      child.once('spawn', () => resolve(this.allocation));
      child.once('exit', (code, signal) => (this.exit = { code, signal }));
    });
  }

  /** RUNNING until srun exits, then COMPLETED or FAILED by its exit. */
  async poll(): Promise<JobState | null> {
    const e = this.exit;
    const state = e === null ? 'RUNNING' : e.code === 0 ? 'COMPLETED' : 'FAILED';
    return { jobId: this.allocation, state, reason: e && e.code !== 0 ? (e.signal ? `srun got ${e.signal}` : 'NonZeroExitCode') : 'None', nodes: process.env.SLURM_JOB_NODELIST ?? '', exitCode: e ? `${e.code ?? 0}:0` : '' };
  }

  /** Output piped since the last call. */
  async readOutput(): Promise<string> {
    const t = this.output;
    this.output = '';
    return t;
  }

  /** SIGTERM to srun, which forwards it to every task. */
  async cancel(): Promise<void> {
    if (this.child && this.exit === null) this.child.kill('SIGTERM');
  }
}
