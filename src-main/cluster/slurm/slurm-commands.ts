// Slurm's client commands (sbatch, scontrol, sacct, scancel, srun) run from Node, with errors that name the
// command and what to do. `env` lets a caller point them at a cluster (SLURM_CONF) without touching process.env.
import { execFile } from 'node:child_process';

/** How the Slurm commands are run. */
export interface SlurmCommandOptions {
  /** Environment of the commands (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds before a command counts as hung (default 30 s). */
  timeoutMs?: number;
}

/** A Slurm command failed or could not be started. */
export class SlurmCommandError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
  }
}

/** Runs a Slurm command and resolves with its stdout; rejects with SlurmCommandError naming it and its stderr. */
export function slurmCommand(command: string, args: string[], o: SlurmCommandOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: o.env ?? process.env, timeout: o.timeoutMs ?? 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const e = error as NodeJS.ErrnoException & { code?: string | number };
      if (e.code === 'ENOENT') {
        reject(new SlurmCommandError(`${command} was not found on PATH: run dsmc on a Slurm login node (or load Slurm's module), or install Slurm's client commands`, ''));
        return;
      }
      const text = (stderr || stdout || e.message).trim();
      reject(new SlurmCommandError(`${command} ${args.join(' ')} failed: ${text}`, stderr));
    });
  });
}

/** Submits a script with sbatch --parsable; resolves with the job id. */
export async function sbatch(scriptPath: string, o: SlurmCommandOptions = {}): Promise<string> {
  const out = await slurmCommand('sbatch', ['--parsable', scriptPath], o);
  const id = out.trim().split(';')[0];
  if (!/^\d+$/.test(id)) throw new SlurmCommandError(`sbatch ${scriptPath} printed "${out.trim()}" instead of a job id; check the script's #SBATCH lines`, '');
  return id;
}

/** Cancels a job (or sends it a signal) with scancel; a job that has already ended is not an error. */
export async function scancel(jobId: string, o: SlurmCommandOptions & { signal?: string } = {}): Promise<void> {
  try {
    await slurmCommand('scancel', [...(o.signal ? [`--signal=${o.signal}`] : []), jobId], o);
  } catch (e) {
    if (!(e instanceof SlurmCommandError) || !/already completing|completed|Invalid job id/i.test(e.message)) throw e;
  }
}
