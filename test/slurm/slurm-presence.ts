// Whether this machine can start the simulated Slurm cluster of slurm-cluster.test.ts: Slurm's daemons and
// client, munge, iproute2 and util-linux's nsenter/unshare on PATH, and root (network namespaces). When something
// is missing the file is skipped with one line naming it and the fix, unless DSMC_REQUIRE_SLURM=1 (CI's .ci/run
// installs everything and sets it, so a broken install fails there instead of passing as skipped).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The commands the simulated cluster runs, with the Debian package of each. */
export const SLURM_TOOLS: [command: string, pkg: string][] = [
  ['slurmctld', 'slurm-wlm'], ['slurmd', 'slurm-wlm'], ['sbatch', 'slurm-client'], ['salloc', 'slurm-client'],
  ['munged', 'munge'], ['ip', 'iproute2'], ['nsenter', 'util-linux'], ['unshare', 'util-linux'],
];

/** True when `command` is an executable file in one of the PATH folders. */
function onPath(command: string, path: string): boolean {
  return path.split(delimiter).filter(Boolean).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Why the Slurm tests cannot run here (one line: what is missing and how to install it), or null when they can. */
export function slurmMissing(env: NodeJS.ProcessEnv = process.env, uid: number | undefined = process.getuid?.()): string | null {
  const missing = SLURM_TOOLS.filter(([c]) => !onPath(c, env.PATH ?? '')).map(([c]) => c);
  if (missing.length > 0) {
    return `Slurm tests skipped: ${missing.join(', ')} not found on PATH; install them with \`sudo sh .ci/install-slurm.sh\` ` +
      '(Debian: slurm-wlm, slurm-client, munge, iproute2) and run the tests as root';
  }
  if (uid !== 0) return 'Slurm tests skipped: they need root (network namespaces and slurmd); run them as root, as CI does (`sudo npm test`)';
  return null;
}

/** The skip reason for the Slurm test file, printed once; throws instead where DSMC_REQUIRE_SLURM=1 demands the tests. */
export function slurmSkipReason(env: NodeJS.ProcessEnv = process.env): string | null {
  const reason = slurmMissing(env);
  if (reason && env.DSMC_REQUIRE_SLURM === '1') throw new Error(`DSMC_REQUIRE_SLURM=1 but ${reason.replace(/^Slurm tests skipped: /, '')}`);
  if (reason) process.stderr.write(`${reason}\n`);
  return reason;
}
