// GPU discovery and pinning (src-main/cluster/gpus.ts): the device-select layer's list as it prints it on an
// NVIDIA host and on lavapipe, nvidia-smi's memory, and the assignment of ranks to GPUs with its messages.
import { describe, expect, it } from 'vitest';
import { assignGpus, parseDeviceList, parseNvidiaSmiMemory, pinEnvironment } from '../../src-main/cluster/gpus.js';

const H200_LIST = `selectable devices:
  GPU 0: 10de:2335 "NVIDIA H200" discrete GPU 0000:00:06.0
  GPU 1: 10de:2335 "NVIDIA H200" discrete GPU 0000:00:07.0
`;
const LAVAPIPE_LIST = `selectable devices:
  GPU 0: 10005:0 "llvmpipe (LLVM 15.0.6, 256 bits)" CPU
`;

describe('GPU discovery', () => {
  it('parses the device-select list with and without PCI addresses', () => {
    expect(parseDeviceList(H200_LIST)).toEqual([
      { index: 0, name: 'NVIDIA H200', kind: 'discrete GPU', pci: '0000:00:06.0', memoryBytes: null },
      { index: 1, name: 'NVIDIA H200', kind: 'discrete GPU', pci: '0000:00:07.0', memoryBytes: null },
    ]);
    expect(parseDeviceList(LAVAPIPE_LIST)).toEqual([{ index: 0, name: 'llvmpipe (LLVM 15.0.6, 256 bits)', kind: 'CPU', pci: null, memoryBytes: null }]);
    expect(parseDeviceList('no layer here')).toEqual([]);
  });

  it("reads nvidia-smi's memory per PCI address (its 8-digit domain matched to the layer's 4)", () => {
    const m = parseNvidiaSmiMemory('00000000:00:06.0, 143771\n00000000:00:07.0, 143771\n');
    expect(m.get('0000:00:06.0')).toBe(143771 * 2 ** 20);
    expect(m.size).toBe(2);
  });
});

describe('assigning ranks to GPUs', () => {
  const h200 = parseDeviceList(H200_LIST);
  it('pins rank r to GPU r by PCI address when there are enough pinnable GPUs', () => {
    const a = assignGpus(2, h200);
    expect(a.warnings).toEqual([]);
    expect(a.ranks.map((r) => r.env)).toEqual([pinEnvironment('0000:00:06.0'), pinEnvironment('0000:00:07.0')]);
    expect(pinEnvironment('0000:00:07.0')).toEqual({ DRI_PRIME: 'pci-0000_00_07_0', MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: '1' });
  });

  it('says so before launching when the ranks cannot be pinned, and lets them share the default adapter', () => {
    const a = assignGpus(4, parseDeviceList(LAVAPIPE_LIST));
    expect(a.warnings[0]).toMatch(/cannot be pinned: they share the default adapter/);
    expect(a.ranks.every((r) => !r.pinned && r.label === 'default')).toBe(true);
  });

  it('spreads more ranks than GPUs over the GPUs in contiguous groups, saying so', () => {
    const four = assignGpus(4, h200);
    expect(four.ranks.map((r) => r.label)).toEqual(['0000:00:06.0', '0000:00:06.0', '0000:00:07.0', '0000:00:07.0']);
    expect(four.ranks.every((r) => r.pinned)).toBe(true);
    expect(four.ranks[3].env).toEqual(pinEnvironment('0000:00:07.0'));
    expect(four.warnings[0]).toMatch(/4 ranks but 2 pinnable GPUs: ranks share GPUs \(2 on 0000:00:06.0, 2 on 0000:00:07.0\); pass --gpus to choose/);
    // an odd count: as even as it goes
    expect(assignGpus(5, h200).ranks.map((r) => r.label)).toEqual(['0000:00:06.0', '0000:00:06.0', '0000:00:06.0', '0000:00:07.0', '0000:00:07.0']);
  });

  it('takes --gpus by index or PCI address and refuses what does not exist', () => {
    expect(assignGpus(2, h200, ['1', '0']).ranks.map((r) => r.label)).toEqual(['0000:00:07.0', '0000:00:06.0']);
    expect(assignGpus(1, h200, ['0000:00:09.0']).ranks[0].env.DRI_PRIME).toBe('pci-0000_00_09_0');
    expect(() => assignGpus(2, h200, ['0', '5'])).toThrow(/--gpus: there is no GPU 5; this machine lists 0 \(NVIDIA H200\), 1/);
    expect(() => assignGpus(2, h200, ['0'])).toThrow(/--gpus lists 1 GPUs for 2 ranks/);
    expect(() => assignGpus(1, parseDeviceList(LAVAPIPE_LIST), ['0'])).toThrow(/has no PCI address/);
    expect(() => assignGpus(1, h200, ['gpu0'])).toThrow(/neither a GPU index nor a PCI address/);
  });
});
