// How a rank under srun places itself: rank and world size from SLURM_PROCID/SLURM_NTASKS (DSMC_* win when set),
// the peer socket on the interface toward the orchestrator, and the GPU pinned by SLURM_LOCALID.
import { describe, expect, it } from 'vitest';
import { localAddressToward, peerBindAddress, pinningFor, tcpHostPort } from '../../src-main/cluster/slurm/node-placement.js';
import { readRankEnvironment } from '../../src-main/cluster/transport/rank-environment.js';

const BASE = { DSMC_ORCHESTRATOR: 'tcp://127.0.0.1:5000', DSMC_PEER_BIND: 'tcp://127.0.0.1:*', DSMC_HEARTBEAT_MS: '2000' };

describe('rank environment under srun', () => {
  it('takes rank and world size from SLURM_PROCID and SLURM_NTASKS', () => {
    expect(readRankEnvironment({ ...BASE, SLURM_PROCID: '3', SLURM_NTASKS: '8' })).toMatchObject({ rank: 3, worldSize: 8 });
  });

  it('prefers DSMC_RANK and DSMC_WORLD_SIZE when both are set', () => {
    expect(readRankEnvironment({ ...BASE, DSMC_RANK: '1', DSMC_WORLD_SIZE: '2', SLURM_PROCID: '3', SLURM_NTASKS: '8' })).toMatchObject({ rank: 1, worldSize: 2 });
  });

  it('names the variable when neither is set', () => {
    expect(() => readRankEnvironment({ ...BASE, SLURM_NTASKS: '8' })).toThrow(/DSMC_RANK=null is not usable.*srun through the Slurm launcher/);
  });
});

describe('peer socket address', () => {
  it('binds on the local address of the route to the orchestrator', async () => {
    expect(await localAddressToward('127.0.0.1', 5000)).toBe('127.0.0.1');
    expect(await peerBindAddress({ DSMC_ORCHESTRATOR: 'tcp://127.0.0.1:5000' })).toBe('tcp://127.0.0.1:*');
  });

  it('takes DSMC_PEER_HOST or DSMC_PEER_BIND when given, and refuses an ipc orchestrator', async () => {
    expect(await peerBindAddress({ DSMC_ORCHESTRATOR: 'tcp://10.1.1.1:5000', DSMC_PEER_HOST: '10.9.9.9' })).toBe('tcp://10.9.9.9:*');
    expect(await peerBindAddress({ DSMC_PEER_BIND: 'tcp://eth1:7000' })).toBe('tcp://eth1:7000');
    expect(() => tcpHostPort('ipc:///tmp/x')).toThrow(/DSMC_ORCHESTRATOR=ipc:\/\/\/tmp\/x is not a tcp:\/\/HOST:PORT address/);
    expect(tcpHostPort('tcp://[fe80::1]:9')).toEqual({ host: 'fe80::1', port: 9 });
  });
});

describe('GPU pinning by SLURM_LOCALID', () => {
  const gpus = [
    { index: 0, name: 'llvmpipe', kind: 'CPU', pci: null },
    { index: 1, name: 'NVIDIA H100', kind: 'discrete GPU', pci: '0000:07:00.0' },
    { index: 2, name: 'NVIDIA H100', kind: 'discrete GPU', pci: '0000:0a:00.0' },
  ];

  it('pins local rank k to the k-th GPU with a PCI address', () => {
    expect(pinningFor(0, gpus).env).toEqual({ DRI_PRIME: 'pci-0000_07_00_0', MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: '1' });
    expect(pinningFor(1, gpus).env).toEqual({ DRI_PRIME: 'pci-0000_0a_00_0', MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: '1' });
  });

  it('leaves a rank unpinned, saying why, when the node has too few pinnable GPUs', () => {
    const p = pinningFor(2, gpus);
    expect(p.env).toEqual({});
    expect(p.note).toMatch(/not pinned: local rank 2 but 2 pinnable GPU/);
    expect(pinningFor(0, []).note).toMatch(/device-select layer/);
  });
});
