// GPU discovery and pinning of rank processes. Dawn cannot tell identical GPUs apart, so each rank is
// pinned with Mesa's device-select Vulkan layer: DRI_PRIME=pci-DDDD_BB_DD_F plus
// MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE=1. The GPUs are listed by the same layer
// (MESA_VK_DEVICE_SELECT=list) in a short child process that asks WebGPU for an adapter.
import { spawnSync } from 'node:child_process';

/** One GPU the device-select layer lists. */
export interface GpuInfo {
  index: number;
  name: string;
  /** 'discrete GPU', 'integrated GPU', 'CPU', ... as the layer says. */
  kind: string;
  /** PCI address DDDD:BB:DD.F, null where the driver gives none (lavapipe). */
  pci: string | null;
  /** Device memory in bytes where the vendor's tool reports it (nvidia-smi); WebGPU does not. */
  memoryBytes: number | null;
}

/** Where one rank runs: the GPU label for logs and records, and the environment that pins it. */
export interface RankGpu {
  rank: number;
  label: string;
  env: Record<string, string>;
  pinned: boolean;
}

/** Whether two or more of these ranks share a GPU: pinned to the same PCI address, or unpinned on the default adapter. */
export function ranksShareGpus(ranks: readonly RankGpu[]): boolean {
  return new Set(ranks.map((g) => g.label)).size < ranks.length;
}

/** Whether two or more of these ranks are pinned to one GPU (more ranks than GPUs with PCI addresses). */
export function ranksPinnedTogether(ranks: readonly RankGpu[]): boolean {
  return ranksShareGpus(ranks.filter((g) => g.pinned));
}

/** Parses the layer's list (`  GPU 0: 10de:2330 "NVIDIA H100 80GB HBM3" discrete GPU 0000:07:00.0`). */
export function parseDeviceList(text: string): GpuInfo[] {
  const out: GpuInfo[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*GPU (\d+): [0-9a-f]+:[0-9a-f]+ "([^"]*)" (.*?)\s*$/.exec(line);
    if (!m) continue;
    const pci = /^(.*?)\s*([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f])$/.exec(m[3]);
    out.push({ index: Number(m[1]), name: m[2], kind: pci ? pci[1] : m[3], pci: pci ? pci[2] : null, memoryBytes: null });
  }
  return out;
}

/** Device memory by PCI address (DDDD:BB:DD.F, lower case) from `nvidia-smi --query-gpu=pci.bus_id,memory.total --format=csv,noheader,nounits` (MiB). */
export function parseNvidiaSmiMemory(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*[0-9a-fA-F]*?([0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F])\s*,\s*(\d+)\s*$/.exec(line);
    if (m) out.set(m[1].toLowerCase(), Number(m[2]) * 2 ** 20);
  }
  return out;
}

/** Lists the GPUs through the device-select layer (empty when the layer is not installed), with memory where nvidia-smi reports it. */
export function discoverGpus(): GpuInfo[] {
  const script = "const { create, globals } = await import('webgpu'); Object.assign(globalThis, globals); await create([]).requestAdapter(); process.exit(0);";
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, MESA_VK_DEVICE_SELECT: 'list' }, encoding: 'utf8', timeout: 60_000,
  });
  const gpus = parseDeviceList(`${r.stdout ?? ''}\n${r.stderr ?? ''}`);
  const smi = spawnSync('nvidia-smi', ['--query-gpu=pci.bus_id,memory.total', '--format=csv,noheader,nounits'], { encoding: 'utf8', timeout: 20_000 });
  const memory = smi.status === 0 ? parseNvidiaSmiMemory(smi.stdout) : new Map<string, number>();
  return gpus.map((g) => ({ ...g, memoryBytes: g.pci ? memory.get(g.pci.toLowerCase()) ?? null : null }));
}

/** The environment that pins a process to the GPU at a PCI address. */
export function pinEnvironment(pci: string): Record<string, string> {
  return { DRI_PRIME: `pci-${pci.replace(/[:.]/g, '_')}`, MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: '1' };
}

/**
 * Assigns ranks to GPUs: `requested` lists GPU indices of the discovered list (or PCI addresses); without it
 * rank r gets GPU r when there are enough GPUs with PCI addresses, and with more ranks than two or more such GPUs the
 * ranks are spread over them in contiguous groups (`warnings` says how). Where pinning is impossible, every rank
 * shares the default adapter and `warnings` says so (the way tests run many ranks on lavapipe).
 */
export function assignGpus(ranks: number, gpus: GpuInfo[], requested?: string[]): { ranks: RankGpu[]; warnings: string[] } {
  const warnings: string[] = [];
  const pinnable = gpus.filter((g) => g.pci !== null);
  let chosen: (GpuInfo | { pci: string; name: string })[] | null = null;
  if (requested && requested.length > 0) {
    if (requested.length !== ranks) throw new Error(`--gpus lists ${requested.length} GPUs for ${ranks} ranks: give one per rank (e.g. --gpus ${Array.from({ length: ranks }, (_, i) => i).join(',')})`);
    chosen = requested.map((text) => {
      if (/^\d+$/.test(text)) {
        const g = gpus.find((x) => x.index === Number(text));
        if (!g) throw new Error(`--gpus: there is no GPU ${text}; this machine lists ${gpus.length ? gpus.map((x) => `${x.index} (${x.name})`).join(', ') : 'none (is Mesa\'s device-select layer installed?)'}`);
        if (!g.pci) throw new Error(`--gpus: GPU ${text} (${g.name}) has no PCI address, so a rank cannot be pinned to it; leave out --gpus to share the default adapter`);
        return g;
      }
      if (!/^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]$/.test(text)) throw new Error(`--gpus: "${text}" is neither a GPU index nor a PCI address like 0000:07:00.0`);
      return { pci: text, name: text };
    });
  } else if (pinnable.length >= ranks && ranks > 1) {
    chosen = pinnable.slice(0, ranks);
  } else if (ranks > 1 && pinnable.length >= 2) {
    // more ranks than GPUs: neighbouring ranks share a GPU, every GPU takes about as many (all on the default adapter
    // left the others idle: 4 ranks on 2 H200s ran at one GPU's speed, docs/PERFORMANCE.md)
    chosen = Array.from({ length: ranks }, (_, r) => pinnable[Math.floor((r * pinnable.length) / ranks)]);
    const share = pinnable.map((g) => `${chosen!.filter((c) => c === g).length} on ${g.pci}`).join(', ');
    warnings.push(`${ranks} ranks but ${pinnable.length} pinnable GPUs: ranks share GPUs (${share}); pass --gpus to choose`);
  } else if (ranks > 1) {
    warnings.push(pinnable.length === 0
      ? `no GPU with a PCI address is listed (${gpus.length ? gpus.map((g) => g.name).join(', ') : 'the device-select layer is not installed'}), so the ${ranks} ranks cannot be pinned: they share the default adapter`
      : `${ranks} ranks but ${pinnable.length} pinnable GPUs: the ranks share the default adapter (pass --gpus to choose)`);
  }
  return {
    warnings,
    ranks: Array.from({ length: ranks }, (_, rank) => {
      const g = chosen?.[rank];
      return g?.pci ? { rank, label: g.pci, env: pinEnvironment(g.pci), pinned: true } : { rank, label: 'default', env: {}, pinned: false };
    }),
  };
}
