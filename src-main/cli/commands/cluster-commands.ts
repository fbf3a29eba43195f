// `dsmc cluster profile add|list|show|remove`: the Slurm cluster profiles kept in the run database (partition,
// account, time limit, modules, the product's path on the cluster, default nodes and GPUs per node).
import { ClusterProfileError, type ClusterProfile, type ClusterProfileInput } from '../../cluster/slurm/profile.js';
import type { CliCommand, CommandArgs, CommandOptions } from '../command.js';
import { table } from '../format-summary.js';
import { DATA_DIR_OPTION, positionalCount, withStore } from '../store-args.js';

const USAGE = 'cluster profile add NAME [--partition P] [--account A] [--time T] [--module M ...] [--product-path PATH] [--node NODE] ' +
  '[--nodes N] [--gpus-per-node G] [--no-gpu-request] [--sbatch-option OPT ...] [--work-dir DIR] [--orchestrator-host HOST] [--replace] | ' +
  'cluster profile list|show NAME|remove NAME [--json]';

const OPTIONS: CommandOptions = {
  partition: { type: 'string' },
  account: { type: 'string' },
  time: { type: 'string' },
  module: { type: 'string', multiple: true, default: [] },
  'product-path': { type: 'string' },
  node: { type: 'string' },
  nodes: { type: 'string' },
  'gpus-per-node': { type: 'string' },
  'no-gpu-request': { type: 'boolean', default: false },
  'sbatch-option': { type: 'string', multiple: true, default: [] },
  'work-dir': { type: 'string' },
  'orchestrator-host': { type: 'string' },
  replace: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  ...DATA_DIR_OPTION,
};

/** A whole-number option, or undefined when absent; the error names the option. */
function countOption(args: CommandArgs, name: string): number | undefined {
  const text = args.values[name] as string | undefined;
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`--${name}: got "${text}"; expected a whole number of at least 1`);
  return Number(text);
}

/** The profile the options of `add` describe (validated by the store). */
function profileFromOptions(name: string, args: CommandArgs): ClusterProfileInput {
  const v = args.values;
  const p: ClusterProfileInput = { name, modules: v.module as string[], sbatchOptions: v['sbatch-option'] as string[], requestGpus: !v['no-gpu-request'] };
  if (v.partition !== undefined) p.partition = v.partition as string;
  if (v.account !== undefined) p.account = v.account as string;
  if (v.time !== undefined) p.timeLimit = v.time as string;
  if (v['product-path'] !== undefined) p.productPath = v['product-path'] as string;
  if (v.node !== undefined) p.node = v.node as string;
  if (v['work-dir'] !== undefined) p.workDir = v['work-dir'] as string;
  if (v['orchestrator-host'] !== undefined) p.orchestratorHost = v['orchestrator-host'] as string;
  const nodes = countOption(args, 'nodes');
  const gpus = countOption(args, 'gpus-per-node');
  if (nodes !== undefined) p.nodes = nodes;
  if (gpus !== undefined) p.gpusPerNode = gpus;
  return p;
}

/** The profile's fields as "field: value" lines. */
export function formatProfile(p: ClusterProfile): string {
  const rows: [string, string][] = [
    ['name', p.name], ['partition', p.partition ?? '(cluster default)'], ['account', p.account ?? '(user default)'],
    ['timeLimit', p.timeLimit ?? '(partition default)'], ['modules', p.modules.join(' ') || '-'],
    ['productPath', p.productPath ?? '(this machine\'s product folder; the nodes must share it)'], ['node', p.node],
    ['nodes', String(p.nodes)], ['gpusPerNode', String(p.gpusPerNode)], ['requestGpus', String(p.requestGpus)],
    ['sbatchOptions', p.sbatchOptions.join(' ') || '-'], ['workDir', p.workDir ?? '(the data folder\'s slurm-jobs/)'],
    ['orchestratorHost', p.orchestratorHost ?? '(every interface, announced as this host\'s name)'],
  ];
  return rows.map(([k, v]) => `${k.padEnd(17)}${v}`).join('\n');
}

/** The table of `cluster profile list`. */
function formatProfiles(ps: ClusterProfile[]): string {
  if (ps.length === 0) return 'no cluster profiles; add one with dsmc cluster profile add NAME --partition P ...';
  return table([['name', 'partition', 'account', 'time', 'nodes', 'GPUs/node', 'modules'],
    ...ps.map((p) => [p.name, p.partition ?? '-', p.account ?? '-', p.timeLimit ?? '-', String(p.nodes), String(p.gpusPerNode), p.modules.join(' ') || '-'])]);
}

/** The profile named NAME, or an error listing the profiles there are. */
function requireProfile(ps: { getClusterProfile(n: string): ClusterProfile | null; listClusterProfiles(): ClusterProfile[] }, name: string): ClusterProfile {
  const p = ps.getClusterProfile(name);
  if (p) return p;
  const names = ps.listClusterProfiles().map((x) => x.name);
  throw new Error(`there is no cluster profile "${name}"; ${names.length ? `the profiles are ${names.join(', ')}` : 'add one with dsmc cluster profile add NAME --partition P ...'}`);
}

/** One `cluster profile WORD` action. */
function runProfileWord(args: CommandArgs): number {
  const [, word, name] = args.positionals;
  const json = !!args.values.json;
  const out = (text: string) => process.stdout.write(text + '\n');
  return withStore(args, (store) => {
    switch (word) {
      case 'add': {
        positionalCount(args, 3, 3, USAGE);
        if (!args.values.replace && store.getClusterProfile(name)) throw new Error(`cluster profile "${name}" exists; pass --replace to overwrite it, or dsmc cluster profile remove ${name} first`);
        try {
          const p = store.saveClusterProfile(profileFromOptions(name, args));
          out(json ? JSON.stringify(p) : `saved cluster profile "${p.name}"\n${formatProfile(p)}`);
        } catch (e) {
          if (e instanceof ClusterProfileError) throw new Error(`${e.message}\n(options: --partition, --account, --time, --module, --product-path, --node, --nodes, --gpus-per-node, --sbatch-option, --work-dir, --orchestrator-host)`);
          throw e;
        }
        return 0;
      }
      case 'list':
        positionalCount(args, 2, 2, USAGE);
        out(json ? JSON.stringify(store.listClusterProfiles()) : formatProfiles(store.listClusterProfiles()));
        return 0;
      case 'show': {
        positionalCount(args, 3, 3, USAGE);
        const p = requireProfile(store, name);
        out(json ? JSON.stringify(p) : formatProfile(p));
        return 0;
      }
      case 'remove':
        positionalCount(args, 3, 3, USAGE);
        requireProfile(store, name);
        store.removeClusterProfile(name);
        out(`removed cluster profile "${name}"`);
        return 0;
      default:
        throw new Error(`unknown word "${word ?? ''}" after "cluster profile": expected add, list, show or remove; usage: dsmc ${USAGE}`);
    }
  });
}

export const clusterCommand: CliCommand = {
  name: 'cluster',
  usage: USAGE,
  summary: 'Slurm cluster profiles for dsmc run --launcher slurm: partition, account, time limit, modules, the product\'s path on\n' +
    'the cluster, default --nodes and --gpus-per-node. Stored in the run database; nothing site-specific is built in.',
  options: OPTIONS,
  async run(args) {
    if (args.positionals[0] !== 'profile') throw new Error(`unknown cluster subcommand "${args.positionals[0] ?? ''}": expected profile; usage: dsmc ${USAGE}`);
    return runProfileWord(args);
  },
};
