// Rank side: end this rank process when the supervisor that started it is gone (killed without a chance to stop
// its ranks), so no orphan keeps a GPU busy. Polls the parent pid; the timer does not keep the process alive.

/** Environment variable with the supervisor's pid (launchRanks sets it). */
export const SUPERVISOR_PID_ENV = 'DSMC_SUPERVISOR_PID';

/** Exits with `exitCode` once this process's parent is no longer the supervisor; returns the function that stops watching. */
export function exitWhenSupervisorGone(options: { intervalMs?: number; exitCode?: number; env?: NodeJS.ProcessEnv } = {}): () => void {
  const supervisorPid = Number((options.env ?? process.env)[SUPERVISOR_PID_ENV]);
  if (!Number.isInteger(supervisorPid) || supervisorPid <= 0) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid !== supervisorPid) {
      process.stderr.write(`the supervisor (pid ${supervisorPid}) is gone; rank process ${process.pid} exits\n`);
      process.exit(options.exitCode ?? 70);
    }
  }, options.intervalMs ?? 250).unref();
  return () => clearInterval(timer);
}
