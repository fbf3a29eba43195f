// A real Slurm cluster on this machine for the tests: munged, slurmctld and one slurmd per simulated host, each
// slurmd in its own network namespace (joined to a bridge by a veth pair) and UTS namespace (its own host name),
// so ranks on different "hosts" talk over tcp through real interfaces. Needs root, iproute2, util-linux and
// Debian's slurm-wlm + munge (.ci/install-slurm.sh). stop() removes every daemon, namespace, link and file, and
// runs at process exit too, so a failed test leaves nothing behind.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/** One simulated host. */
export interface SimHost {
  name: string;
  /** Network namespace holding its slurmd and everything slurmd starts. */
  netns: string;
  address: string;
}

export interface SimCluster {
  dir: string;
  /** Environment for Slurm's commands (SLURM_CONF). */
  env: NodeJS.ProcessEnv;
  /** Address of this (root) namespace on the bridge: where the orchestrator listens. */
  orchestratorHost: string;
  partition: string;
  hosts: SimHost[];
  /** Runs a Slurm command against the cluster; returns stdout. */
  slurm(command: string, args: string[]): string;
  /** SIGKILLs every process in a host's network namespace (its slurmd, slurmstepd and ranks): the host disappears. */
  killHost(name: string): number[];
  /** Stops everything and removes what start created. */
  stop(): void;
}

/** Runs a command; throws with its stderr. */
function run(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr}`);
  return r.stdout;
}

/** Runs a command, ignoring failure (cleanup). */
function quiet(command: string, args: string[]): void {
  spawnSync(command, args, { encoding: 'utf8' });
}

/** Throws with the fix when something the cluster needs is missing. */
function requireTools(): void {
  const missing = ['slurmctld', 'slurmd', 'munged', 'sbatch', 'ip', 'nsenter', 'unshare'].filter((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status !== 0);
  if (missing.length > 0) throw new Error(`the simulated Slurm cluster needs ${missing.join(', ')}: run .ci/install-slurm.sh (as root)`);
  if (process.getuid?.() !== 0) throw new Error('the simulated Slurm cluster needs root (network namespaces, slurmd); run the Slurm tests as root, as CI does');
}

/** The PIDs in a network namespace. */
function netnsPids(netns: string): number[] {
  const r = spawnSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' });
  return (r.stdout ?? '').split('\n').filter((x) => /^\d+$/.test(x)).map(Number);
}

/** The slurm.conf of the cluster. */
function slurmConf(dir: string, ports: { ctld: number; slurmd: number }, controller: string, hosts: SimHost[], partition: string, cpus: number): string {
  return [
    'ClusterName=dsmcsim',
    `SlurmctldHost=${hostname()}(${controller})`,
    `SlurmctldPort=${ports.ctld}`,
    `SlurmdPort=${ports.slurmd}`,
    'AuthType=auth/munge',
    `AuthInfo=socket=${join(dir, 'munge.sock')}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool', '%n')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd-%n.pid')}`,
    `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'slurmd-%n.log')}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SchedulerType=sched/builtin',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'ReturnToService=2',
    'MpiDefault=none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'SwitchType=switch/none',
    'SlurmdTimeout=30',
    'MinJobAge=600',
    'KillWait=5',
    ...hosts.map((h) => `NodeName=${h.name} NodeAddr=${h.address} CPUs=${cpus} State=UNKNOWN`),
    `PartitionName=${partition} Nodes=${hosts.map((h) => h.name).join(',')} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

/** Starts a cluster of `hosts` simulated hosts (default 2), each with `cpus` CPUs (default 2, no GRES). */
export async function startSimCluster(o: { hosts?: number; cpus?: number } = {}): Promise<SimCluster> {
  requireTools();
  const count = o.hosts ?? 2;
  const tag = `ds${process.pid % 100000}`;
  const subnet = `10.${200 + (process.pid % 50)}.${process.pid % 250}`;
  const dir = mkdtempSync(join(tmpdir(), 'dsmc-slurm-'));
  const bridge = `${tag}br`;
  const partition = 'sim';
  const hosts: SimHost[] = Array.from({ length: count }, (_, i) => ({ name: `n${i + 1}`, netns: `${tag}-n${i + 1}`, address: `${subnet}.${11 + i}` }));
  const ports = { ctld: 20000 + (process.pid % 10000) * 2, slurmd: 20001 + (process.pid % 10000) * 2 };
  const env = { ...process.env, SLURM_CONF: join(dir, 'slurm.conf') };
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stop);
    for (const f of [...hosts.map((h) => `slurmd-${h.name}.pid`), 'slurmctld.pid', 'munged.pid']) {
      const p = join(dir, f);
      if (existsSync(p)) quiet('kill', ['-9', readFileSync(p, 'utf8').trim()]);
    }
    for (const h of hosts) {
      for (const pid of netnsPids(h.netns)) quiet('kill', ['-9', String(pid)]);
      quiet('ip', ['netns', 'del', h.netns]);
    }
    quiet('ip', ['link', 'del', bridge]);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);

  try {
    // network: a bridge in this namespace, one veth pair per host
    run('ip', ['link', 'add', bridge, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
    run('ip', ['link', 'set', bridge, 'up']);
    hosts.forEach((h, i) => {
      const v = `${tag}v${i + 1}`;
      const p = `${tag}p${i + 1}`;
      run('ip', ['netns', 'add', h.netns]);
      run('ip', ['link', 'add', v, 'type', 'veth', 'peer', 'name', p]);
      run('ip', ['link', 'set', p, 'master', bridge]);
      run('ip', ['link', 'set', p, 'up']);
      run('ip', ['link', 'set', v, 'netns', h.netns]);
      run('ip', ['-n', h.netns, 'addr', 'add', `${h.address}/24`, 'dev', v]);
      run('ip', ['-n', h.netns, 'link', 'set', v, 'up']);
      run('ip', ['-n', h.netns, 'link', 'set', 'lo', 'up']);
    });
    // munge with its own key and socket
    mkdirSync(join(dir, 'state'));
    mkdirSync(join(dir, 'spool'));
    writeFileSync(join(dir, 'munge.key'), randomBytes(1024), { mode: 0o600 });
    run('munged', ['-f', `--socket=${join(dir, 'munge.sock')}`, `--key-file=${join(dir, 'munge.key')}`, `--pid-file=${join(dir, 'munged.pid')}`,
      `--log-file=${join(dir, 'munged.log')}`, `--seed-file=${join(dir, 'munged.seed')}`]);
    writeFileSync(env.SLURM_CONF, slurmConf(dir, ports, `${subnet}.1`, hosts, partition, o.cpus ?? 2));
    run('slurmctld', ['-f', env.SLURM_CONF]);
    // nsenter, not `ip netns exec`: that remounts /sys, and slurmd needs /sys/fs/cgroup
    for (const h of hosts) {
      try {
        run('nsenter', [`--net=/run/netns/${h.netns}`, 'unshare', '--uts', 'sh', '-c', `hostname ${h.name} && exec slurmd -N ${h.name} -f ${env.SLURM_CONF}`]);
      } catch (e) {
        const log = join(dir, `slurmd-${h.name}.log`);
        throw new Error(`${(e as Error).message}\nslurmd log:\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '(none)'}`);
      }
    }
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = spawnSync('sinfo', ['-h', '-N', '-o', '%N %t'], { env, encoding: 'utf8' }).stdout ?? '';
      if (hosts.every((h) => new RegExp(`^${h.name} idle`, 'm').test(states))) break;
      if (Date.now() > deadline) throw new Error(`the simulated hosts did not become idle in 30 s:\n${states}\nslurmctld log:\n${readFileSync(join(dir, 'slurmctld.log'), 'utf8').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  } catch (e) {
    stop();
    throw e;
  }
  return {
    dir, env, orchestratorHost: `${subnet}.1`, partition, hosts,
    slurm: (command, args) => execFileSync(command, args, { env, encoding: 'utf8' }),
    killHost(name) {
      const h = hosts.find((x) => x.name === name);
      if (!h) throw new Error(`no simulated host ${name}`);
      const pids = netnsPids(h.netns);
      for (const pid of pids) quiet('kill', ['-9', String(pid)]);
      return pids;
    },
    stop,
  };
}
