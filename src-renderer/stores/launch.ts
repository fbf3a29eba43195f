// Launch settings: the GPUs discovered, how many ranks, the decomposition and its rebalancing, and the launch itself.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { DECOMPOSITIONS, type Decomposition } from '../../src-main/common/contract/contract.js';
import type { ClusterProfileInfo, GpuInfo } from '../../src-main/common/contract/types.js';
import { getApi } from '../api/index.js';
import { errorText } from './errors.js';

export const useLaunchStore = defineStore('launch', () => {
  // State
  const gpus = ref<GpuInfo[]>([]);
  const selectedGpus = ref<number[]>([0]);
  const ranks = ref(1);
  /** '' for the case's default (rcb where bodies cut the box, slabs otherwise). */
  const decomposition = ref<Decomposition | ''>('');
  /** How the split is rebalanced: '' the default (20 %, none where ranks share a GPU), 'off' never, 'at' at rebalancePercent. */
  const rebalance = ref<'' | 'off' | 'at'>('');
  const rebalancePercent = ref(20);
  const project = ref('default');
  const launching = ref(false);
  /** Where the ranks run: '' for this machine, else the name of a Slurm cluster profile. */
  const where = ref('');
  const profiles = ref<ClusterProfileInfo[]>([]);
  const nodes = ref(1);
  const gpusPerNode = ref(1);
  const error = ref<string | null>(null);

  // Actions
  /** Discovers the GPUs (the default adapter for now). */
  async function loadGpus(): Promise<void> {
    try {
      gpus.value = await getApi().listGpus({});
      profiles.value = await getApi().listClusterProfiles({});
    } catch (e) {
      error.value = errorText(e);
    }
  }

  /** Chooses where the ranks run ('' for this machine, or a cluster profile, whose node and GPU counts become the defaults). */
  function chooseWhere(name: string): void {
    where.value = name;
    const p = profiles.value.find((x) => x.name === name);
    if (p) {
      nodes.value = p.nodes;
      gpusPerNode.value = p.gpusPerNode;
    }
  }

  /** Launches the case; resolves to the run id, or null with `error` set. */
  async function launch(caseJson: unknown): Promise<number | null> {
    launching.value = true;
    error.value = null;
    try {
      const cluster = where.value ? { profile: where.value, nodes: nodes.value, gpusPerNode: gpusPerNode.value } : undefined;
      const rebalancing = rebalance.value === 'off' ? 'off' as const : rebalance.value === 'at' ? rebalancePercent.value : undefined;
      const { runId } = await getApi().launchRun({ project: project.value, caseJson, ranks: cluster ? cluster.nodes * cluster.gpusPerNode : ranks.value, gpus: selectedGpus.value, decomposition: decomposition.value || undefined, rebalance: rebalancing, cluster });
      return runId;
    } catch (e) {
      error.value = errorText(e);
      return null;
    } finally {
      launching.value = false;
    }
  }

  return { gpus, selectedGpus, ranks, decomposition, rebalance, rebalancePercent, decompositions: DECOMPOSITIONS, project, launching, error, where, profiles, nodes, gpusPerNode, loadGpus, chooseWhere, launch };
});
