// The generated sbatch script and srun line for several cluster profiles: directives present or absent as the
// profile says, values quoted for bash, the rank environment exported, one task per GPU, and a script bash parses.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { jobSpecOf, type SlurmJobSpec } from '../../src-main/cluster/slurm/job-spec.js';
import { parseClusterProfile } from '../../src-main/cluster/slurm/profile.js';
import { sbatchScript, srunArguments } from '../../src-main/cluster/slurm/sbatch-script.js';

const ENV = { DSMC_ORCHESTRATOR: 'tcp://login1:41234', DSMC_WORLD_SIZE: '8', DSMC_HEARTBEAT_MS: '2000' };

/** A job spec of a profile for a run on the local product folder. */
function specOf(profile: unknown, run: { nodes?: number; gpusPerNode?: number } = {}): SlurmJobSpec {
  return jobSpecOf(parseClusterProfile(profile), { name: 'dsmc-collide-box', ...run, productPath: '/opt/dsmc', workDir: '/scratch/me/jobs', env: ENV });
}

/** The #SBATCH lines of a script. */
function directives(script: string): string[] {
  return script.split('\n').filter((l) => l.startsWith('#SBATCH ')).map((l) => l.slice(8));
}

describe('sbatch script and srun line per profile', () => {
  it('a bare profile: defaults only, no partition, account, time or GPU request beyond one per node', () => {
    const s = sbatchScript(specOf({ name: 'bare' }));
    expect(directives(s)).toEqual([
      '--job-name=dsmc-collide-box', '--nodes=1', '--ntasks=1', '--ntasks-per-node=1', '--output=/scratch/me/jobs/dsmc-%j.out', '--no-requeue', '--gpus-per-node=1',
    ]);
    expect(s).not.toMatch(/module load/);
    expect(s).toContain('cd /opt/dsmc\n');
    expect(s).toMatch(/\nsrun --label --kill-on-bad-exit=1 --unbuffered --nodes=1 --ntasks=1 --ntasks-per-node=1 node \/opt\/dsmc\/out\/src-main\/cluster\/slurm\/rank-entry.js\n$/);
  });

  it('a full site profile: partition, account, time, modules in order, extra options, its own node and folders; CLI counts win', () => {
    const profile = {
      name: 'hpc-a100', partition: 'gpu', account: 'proj42', timeLimit: '1-12:00:00', modules: ['nodejs/20.11', 'mesa/25.0'],
      productPath: '/apps/dsmc-studio', node: '/apps/node20/bin/node', nodes: 4, gpusPerNode: 4, sbatchOptions: ['--qos=normal', '--constraint=a100'],
      workDir: '/scratch/proj42/dsmc',
    };
    const spec = specOf(profile, { nodes: 2 });
    const s = sbatchScript(spec);
    expect(directives(s)).toEqual([
      '--job-name=dsmc-collide-box', '--nodes=2', '--ntasks=8', '--ntasks-per-node=4', '--output=/scratch/proj42/dsmc/dsmc-%j.out', '--no-requeue',
      '--gpus-per-node=4', '--partition=gpu', '--account=proj42', '--time=1-12:00:00', '--qos=normal', '--constraint=a100',
    ]);
    expect(s.indexOf('module load nodejs/20.11')).toBeLessThan(s.indexOf('module load mesa/25.0'));
    expect(s.indexOf('module load mesa/25.0')).toBeLessThan(s.indexOf('\nsrun '));
    expect(s).toContain('cd /apps/dsmc-studio\n');
    for (const [k, v] of Object.entries(ENV)) expect(s).toContain(`export ${k}=${v}\n`);
    expect(srunArguments(spec)).toEqual([
      '--label', '--kill-on-bad-exit=1', '--unbuffered', '--nodes=2', '--ntasks=8', '--ntasks-per-node=4',
      '/apps/node20/bin/node', '/apps/dsmc-studio/out/src-main/cluster/slurm/rank-entry.js',
    ]);
  });

  it('a cluster without GPU scheduling (requestGpus false): no --gpus-per-node, tasks per node still one per GPU', () => {
    const s = sbatchScript(specOf({ name: 'nogres', requestGpus: false, gpusPerNode: 2, nodes: 3 }));
    expect(directives(s)).not.toContainEqual(expect.stringMatching(/^--gpus/));
    expect(directives(s)).toContain('--ntasks=6');
    expect(directives(s)).toContain('--ntasks-per-node=2');
  });

  it('quotes values with blanks or quotes so bash reads them back unchanged, and the script parses', () => {
    const spec = { ...specOf({ name: 'q', productPath: '/home/me/my dsmc' }), env: { ...ENV, DSMC_NOTE: "it's a \"test\" $HOME" } };
    const s = sbatchScript(spec);
    expect(s).toContain(`cd '/home/me/my dsmc'`);
    const r = spawnSync('bash', ['-n'], { input: s, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const echoed = spawnSync('bash', ['-c', `${s.split('\n').find((l) => l.startsWith('export DSMC_NOTE='))}; printf %s "$DSMC_NOTE"`], { encoding: 'utf8' });
    expect(echoed.stdout).toBe("it's a \"test\" $HOME");
  });
});

describe('cluster profile validation', () => {
  it('names every bad field with its fix', () => {
    let message = '';
    try {
      parseClusterProfile({ name: 'x', partition: 'gpu; rm -rf /', timeLimit: 'two hours', nodes: 0, productPath: 'relative/path', colour: 'red' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^invalid cluster profile:/);
    expect(message).toContain('partition: may hold only letters, digits');
    expect(message).toContain('timeLimit: use a Slurm time like 30 (minutes), 1:00:00 or 1-12:00:00');
    expect(message).toContain('nodes: at least 1');
    expect(message).toContain('productPath: an absolute path on the cluster');
    expect(message).toMatch(/unknown field\(s\) colour; the fields are name, partition, account/);
    expect(() => parseClusterProfile({ name: '' })).toThrow(/name: 1-64 letters/);
    expect(() => parseClusterProfile({ name: 'x', sbatchOptions: ['qos normal'] })).toThrow(/sbatchOptions entries look like --qos=normal/);
  });

  it('fills the defaults: node on PATH, one node of one GPU, GPUs requested, no modules', () => {
    expect(parseClusterProfile({ name: 'd' })).toEqual({ name: 'd', modules: [], node: 'node', nodes: 1, gpusPerNode: 1, requestGpus: true, sbatchOptions: [] });
  });
});
